// Admin › Models in a real browser against the Ollama fake: on a phone the admin sees the installed
// models with what each can do, chooses the chat model, downloads the fake's pullable model and
// follows its progress until it is listed, and restricts a member to one chat model (the member's
// GET /api/models then lists only that one); on a laptop the admin deletes a model after
// confirming; with the runtime down the page says so and what to do. Axe on each state.
// Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, EMBEDDING_MODEL, PULLABLE_MODEL, VISION_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('the admin Models page', () => {
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, server.admin.cookie!, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return page;
  }

  const row = (page: Page, name: string) => page.locator(`[data-testid="model-row"][data-model="${name}"]`);

  beforeAll(async () => {
    requireBuiltWebApp();
    // slow enough pull lines (19 of them) that the progress is on screen for a few seconds
    runtime = await startFakeModelRuntime({ chunkDelayMs: 300 });
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await server.handle.deps.features.setChosenModel('chat', CHAT_MODEL.name);
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await runtime?.close();
  });

  it('on a phone: sees the models, chooses the chat model, downloads one with progress, restricts a member', async () => {
    const page = await open(PHONE);
    await page.goto(`${server.url}/admin/models`);
    await shown(page.getByRole('heading', { name: 'Models', level: 1 }));
    await shown(row(page, CHAT_MODEL.name));
    for (const m of [VISION_MODEL, EMBEDDING_MODEL]) await shown(row(page, m.name));
    await shown(row(page, VISION_MODEL.name).getByText('Sees pictures'));
    await shown(row(page, EMBEDDING_MODEL.name).getByText('Search index', { exact: true }));
    await shown(row(page, CHAT_MODEL.name).getByText('Household chat model'));
    await shown(row(page, CHAT_MODEL.name).getByText('Runs well here'));

    // the chat model: only chat-capable models are offered
    const chatSelect = page.getByRole('combobox', { name: 'Chat model' });
    expect(await chatSelect.locator('option').allTextContents()).not.toContain(EMBEDDING_MODEL.name);
    await chatSelect.selectOption(VISION_MODEL.name);
    await shown(row(page, VISION_MODEL.name).getByText('Household chat model'));
    expect(await server.handle.deps.features.chosenModel('chat')).toBe(VISION_MODEL.name);

    // download the fake's pullable model: its progress, then the model in the list
    await page.getByRole('textbox', { name: 'Model name' }).fill(PULLABLE_MODEL.name);
    await page.getByRole('button', { name: 'Download' }).tap();
    await shown(page.getByRole('progressbar', { name: `Downloading ${PULLABLE_MODEL.name}` }));
    const job = (await server.admin.get('/api/jobs/status')).body.jobs.find((j: { target: string }) => j.target === PULLABLE_MODEL.name);
    expect(job).toMatchObject({ kind: 'runtime_model' });
    // the progress has been seen: the rest of the pull comes at the fake's usual pace
    runtime.chunkDelayMs = 5;
    await shown(row(page, PULLABLE_MODEL.name), 30_000);
    await gone(page.getByRole('progressbar', { name: `Downloading ${PULLABLE_MODEL.name}` }));

    // Sam may use only the vision model
    const sam = page.locator('[data-testid="model-access-member"][data-user="Sam"]');
    await shown(sam);
    const all = sam.getByRole('switch', { name: 'All chat models' });
    expect(await all.getAttribute('aria-checked')).toBe('true');
    await all.tap();
    await shown(sam.getByRole('checkbox', { name: CHAT_MODEL.name }));
    for (const name of [CHAT_MODEL.name, PULLABLE_MODEL.name]) {
      const box = sam.getByRole('checkbox', { name });
      await box.tap();
      await page.waitForFunction((n) => {
        const el = [...document.querySelectorAll<HTMLInputElement>('[data-user="Sam"] input[type=checkbox]')].find((i) => i.parentElement?.textContent === n);
        return el && !el.checked && !el.disabled;
      }, name);
    }
    expect((await server.admin.get('/api/models/access')).body.members).toEqual([{ userId: server.users.member.id, name: 'Sam', allowed: [VISION_MODEL.name] }]);
    const memberList = await server.member.get('/api/models');
    expect(memberList.body.models.map((m: { name: string }) => m.name)).toEqual([VISION_MODEL.name]);

    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: '/tmp/hearth-phone-models.png', fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('on a laptop: deletes a model after confirming, and a chosen one is refused with a sentence', async () => {
    const page = await open(DESKTOP);
    await page.goto(`${server.url}/admin/models`);
    await shown(row(page, PULLABLE_MODEL.name));
    // Sam's restriction from the phone shows here too
    await shown(page.locator('[data-user="Sam"]').getByRole('checkbox', { name: VISION_MODEL.name }));

    // the household's chat model cannot go until another is chosen
    await row(page, VISION_MODEL.name).getByRole('button', { name: `Delete ${VISION_MODEL.name}` }).click();
    const dialog = page.getByTestId('model-delete-dialog');
    await shown(dialog);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await shown(dialog.getByText(/Choose another chat model first/));
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await gone(dialog);

    await row(page, PULLABLE_MODEL.name).getByRole('button', { name: `Delete ${PULLABLE_MODEL.name}` }).click();
    await shown(dialog);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await gone(dialog);
    await gone(row(page, PULLABLE_MODEL.name));
    expect(runtime.models.map((m) => m.name)).not.toContain(PULLABLE_MODEL.name);

    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: '/tmp/hearth-desktop-models.png', fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('with the runtime down: one clear message with what to do, no empty lists', async () => {
    await runtime.setMode('down');
    try {
      const page = await open(PHONE);
      await page.goto(`${server.url}/admin/models`);
      const down = page.getByTestId('models-runtime-down');
      await shown(down);
      await shown(down.getByText('Start Ollama on the Hearth computer'));
      expect(await page.getByTestId('model-list').count()).toBe(0);
      expect(await page.getByTestId('model-access').count()).toBe(0);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: '/tmp/hearth-phone-models-down.png' });

      // it comes back: Check again shows the models
      await runtime.setMode('ok');
      await down.getByRole('button', { name: 'Check again' }).tap();
      await shown(row(page, CHAT_MODEL.name));
      expect(pageErrors).toEqual([]);
    } finally {
      if (runtime.mode !== 'ok') await runtime.setMode('ok');
    }
  }, 60_000);
});
