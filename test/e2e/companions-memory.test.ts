// Issue 32 in the browser: an admin grants the Cooking helper to a member in the companion editor
// (1280 px); the member, on a 390 px phone, stars it, starts a chat with it, and the answer comes
// from the Ollama fake with the companion's prompt applied (the fake answers as the cook only when
// the cook's system prompt reached it), and re-opened without ?companion= the chat keeps it; memory, off for the household, is turned on by an admin from
// the Memory page and the member adds a memory and forgets it again (1280 px). axe finds nothing
// serious. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';

const COOK_REPLY = 'The cook says: make a spinach omelette.';

describe('companions and memory in the browser', () => {
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime({
      chunkDelayMs: 1,
      chatReply: (req) => (String(req.messages[0]?.content ?? '').includes('You are a friendly home cooking helper.') ? COOK_REPLY : 'A plain answer.'),
    });
    server = await startTestServer({ seed: 'household', overrides: { modelRuntime: createOllamaClient({ baseUrl: runtime.url }) } });
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
  });

  it('an admin grants a companion; the member stars it and chats with it on a phone', async () => {
    const admin = await pages.open('admin', DESKTOP);
    await admin.goto(`${server.url}/companions/manage`);
    const cook = admin.getByRole('listitem', { name: 'Cooking helper' });
    const grant = cook.getByRole('switch', { name: MEMBER.name });
    await shown(grant);
    expect(await grant.getAttribute('aria-checked')).toBe('false');
    await expectNoSeriousA11yViolations(admin, '/companions/manage (laptop)');
    await grant.click();
    await expect.poll(() => grant.getAttribute('aria-checked')).toBe('true');
    const granted = (await server.admin.get('/api/admin/companions')).body.companions.find((c: { id: string }) => c.id === 'cooking-helper');
    expect(granted.grants).toEqual([{ userId: server.users.member.id, granted: true }]);

    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/chat`);
    await page.getByRole('link', { name: 'your companions' }).click();
    const card = page.getByRole('listitem', { name: 'Cooking helper' });
    await shown(card.getByText('Hello! What is in your fridge, or what do you feel like eating?'));
    const star = card.getByRole('button', { name: 'Favorite Cooking helper' });
    await star.click();
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('true');
    const mine = (await server.member.get('/api/companions')).body.companions as Array<{ id: string; favorite: boolean }>;
    expect(mine.find((c) => c.id === 'cooking-helper')?.favorite).toBe(true);
    // favorites first
    await expect.poll(() => page.getByRole('list', { name: 'Your companions' }).getByRole('heading').first().textContent()).toBe('Cooking helper');
    await expectNoSeriousA11yViolations(page, '/companions (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await card.getByRole('link', { name: 'Chat with Cooking helper' }).click();
    await shown(page.getByTestId('chat-companion').getByText('Cooking helper'));
    await page.getByRole('textbox', { name: 'Your message' }).fill('I have eggs and spinach.');
    await page.getByRole('button', { name: 'Send' }).click();
    await shown(page.getByRole('article', { name: 'Answer' }).getByText(COOK_REPLY));
    await expect.poll(() => new URL(page.url()).search).toBe('?companion=cooking-helper');
    await shown(page.getByTestId('chat-companion').getByText('answers in this chat'));
    await expectNoSeriousA11yViolations(page, '/chat with a companion (phone)');

    // re-opened without ?companion= (as from the chat list), the chat keeps its companion
    const chatPath = new URL(page.url()).pathname;
    await page.goto(`${server.url}${chatPath}`);
    await shown(page.getByTestId('chat-companion').getByText('Cooking helper'));
    await page.getByRole('textbox', { name: 'Your message' }).fill('And with cheese?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Answer' }).getByText(COOK_REPLY).count()).toBe(2);
    expect(pages.pageErrors).toEqual([]);
  });

  it('memory: an admin turns it on; a member adds a memory and forgets it', async () => {
    const admin = await pages.open('admin', PHONE);
    await admin.goto(`${server.url}/profile/memory`);
    await shown(admin.getByText(/Memory is off for this household/));
    await expectNoSeriousA11yViolations(admin, '/profile/memory off (phone)');
    await admin.getByRole('button', { name: 'Turn memory on for the household' }).click();
    await shown(admin.getByText('Nothing remembered yet'));
    expect((await server.admin.get('/api/admin/memory')).body).toEqual({ enabled: true });

    const page = await pages.open('member', DESKTOP);
    await page.goto(`${server.url}/profile`);
    await page.getByRole('link', { name: 'Your memories' }).click();
    await shown(page.getByText('Nothing remembered yet'));
    await page.getByRole('button', { name: 'Remember this' }).click();
    await shown(page.getByText('Write what to remember.'));
    await page.getByLabel('Something to remember').fill('Sam is allergic to peanuts.');
    await page.getByRole('button', { name: 'Remember this' }).click();
    const list = page.getByRole('list', { name: 'Your memories' });
    await shown(list.getByText('Sam is allergic to peanuts.'));
    expect((await server.member.get('/api/chat/memory')).body.memories.map((m: { text: string }) => m.text)).toEqual(['Sam is allergic to peanuts.']);
    expect(await page.getByRole('button', { name: /household/ }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, '/profile/memory with a memory (laptop)');
    await list.getByRole('button', { name: 'Forget “Sam is allergic to peanuts.”' }).click();
    await shown(page.getByText('Nothing remembered yet'));
    expect((await server.member.get('/api/chat/memory')).body.memories).toEqual([]);
    expect(pages.pageErrors).toEqual([]);
  });
});
