// Issue 39 in the browser: on a phone (390 px) a member analyzes a receipt photo on the Tools page
// (a receipt rendered at test time; real OCR and sharp, the Ollama fake answering in the schema) and
// sees it as a table with its total, copies the JSON; then sends a fridge photo in chat to a chat
// model that cannot see, and the vision model's look ends in the shopping tool. At 1280 px with no
// vision model installed, the card says how to add one instead of offering a button that cannot
// work. axe finds nothing serious. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, VISION_MODEL, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { plainPhoto, receiptPng } from '../fixtures/vision/photos.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('vision in the browser', () => {
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime({ chunkDelayMs: 0 });
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
  });

  it('a phone analyzes a receipt photo and sends a fridge photo to chat, which fills the shopping list', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/tools`);
    const card = page.getByTestId('vision');
    await shown(card.getByRole('heading', { name: 'Analyze a photo' }));
    await card.getByLabel('What to read').selectOption('receipt');
    await card.getByTestId('vision-file').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: await receiptPng() });
    await card.getByRole('button', { name: 'Analyze' }).click();
    const table = card.getByTestId('vision-receipt');
    await shown(table, 60_000);
    expect(await table.locator('tbody tr').allInnerTexts()).toEqual(['Milk\t1.29', 'Eggs\t3.49', 'Bread\t2.15']);
    expect(await table.locator('tfoot tr').innerText()).toBe('Total\t6.93');
    await shown(card.getByText('CORNER MARKET', { exact: true }));
    await card.getByRole('button', { name: 'Copy JSON' }).click();
    await shown(card.getByRole('status').filter({ hasText: /Copied the JSON|did not let Hearth copy/ }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousA11yViolations(page, '/tools, a receipt read (phone)');
    // nothing of the analysis was kept
    expect((await server.member.get('/api/vision/results')).body.results).toEqual([]);

    // chat: the household's chat model cannot see, the vision model looks for it
    runtime.visionObjects = ['milk', 'eggs', 'butter'];
    runtime.toolScript = (req) => {
      const last = req.messages.at(-1);
      const seen = /Things seen: ([^.\]]+)/.exec(String(last?.content ?? ''))?.[1];
      return req.model === CHAT_MODEL.name && last?.role === 'user' && seen ? [{ function: { name: 'shopping_list', arguments: { action: 'add', items: seen.split(', ') } } }] : null;
    };
    await page.goto(`${server.url}/chat`);
    await page.getByLabel('Add a picture').setInputFiles({ name: 'fridge.jpg', mimeType: 'image/jpeg', buffer: await plainPhoto(800, 600) });
    await shown(page.getByRole('list', { name: 'Pictures to send' }).getByRole('img', { name: 'fridge.jpg' }));
    await page.getByLabel('Your message').fill('What is in my fridge, as a shopping list?');
    await page.getByRole('button', { name: 'Send' }).click();
    await shown(page.getByText(/Here is what the tool said: Added to "Shopping"/), 30_000);
    const lists = (await server.member.get('/api/shopping/lists')).body.lists as Array<{ id: string }>;
    expect((await server.member.get(`/api/shopping/lists/${lists[0]!.id}`)).body.items.map((i: { name: string }) => i.name)).toEqual(['milk', 'eggs', 'butter']);
    expect(pages.pageErrors).toEqual([]);
  });

  it('without a vision model the card says how to add one', async () => {
    runtime.models = [CHAT_MODEL, EMBEDDING_MODEL];
    try {
      const page = await pages.open('member', DESKTOP);
      await page.goto(`${server.url}/tools`);
      const card = page.getByTestId('vision');
      await shown(card.getByTestId('vision-unavailable').getByText(/No model that can look at pictures is installed/));
      expect(await card.getByRole('button', { name: 'Analyze' }).count()).toBe(0);
      await expectNoSeriousA11yViolations(page, '/tools, no vision model (desktop)');
    } finally {
      runtime.models = [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL];
    }
  });
});
