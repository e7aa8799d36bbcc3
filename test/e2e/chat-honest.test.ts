// The Chat page says only what is true (issue 29 item 24), on a 390 px phone and a 1280 px laptop,
// against the Ollama fake with no archive installed: while the model runtime is down the page
// offers Check again, which looks again and opens chat once the runtime is back; a new chat
// suggests only questions that can work (no encyclopedia question without an archive); a long
// conversation title is shown whole on a laptop, in the drawer and as the heading. axe finds
// nothing serious. Needs the built web app (`npm run build:web`).
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { ask } from '../harness/chat.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

/** Whether the element shows all of its text: nothing hidden by its overflow, either way. */
const whole = (l: Locator) => l.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);

describe('the Chat page is honest about what works', () => {
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    runtime = await startFakeModelRuntime();
    server = await startTestServer({ seed: 'household', config: { modelRuntimeUrl: runtime.url } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await runtime?.close();
  });

  it('on a phone, with the runtime down, Check again looks again and opens chat once it is back', async () => {
    const page = await pages.open('member', PHONE);
    await runtime.setMode('down');
    try {
      await page.goto(`${server.url}/chat`);
      await shown(page.getByText('Chat cannot answer right now'));
      const again = page.getByRole('button', { name: 'Check again' });
      await shown(again);
      await expectNoSeriousA11yViolations(page, 'chat (runtime down, phone)');
      // still down: it says it looked
      await again.tap();
      await shown(page.getByRole('status').getByText('still not ready', { exact: false }));
      await shown(page.getByText('Chat cannot answer right now'));
    } finally {
      await runtime.setMode('ok');
    }
    await page.getByRole('button', { name: 'Check again' }).tap();
    await shown(page.getByText('Ask anything'));
    await shown(page.getByRole('textbox', { name: 'Your message' }));
    expect(pages.pageErrors).toEqual([]);
  });

  it('on a phone, a new chat suggests no encyclopedia question while no archive is installed', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/chat`);
    const examples = page.getByRole('list', { name: 'Example questions' });
    // the Reader's question shows once the household's tools are known (Reader search works)...
    await shown(examples.getByRole('button', { name: 'What have I saved in the Reader about bread?' }));
    await shown(examples.getByRole('button', { name: 'How do I treat a small burn at home?' }));
    // ...and the encyclopedia's does not: no archive is installed
    expect((await server.member.get('/api/archives/installed')).body.archives).toEqual([]);
    expect(await examples.getByRole('button').allInnerTexts()).not.toContain('What does the encyclopedia say about heat stroke?');
    expect(await page.getByText('encyclopedia', { exact: false }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'chat welcome (phone)');
  });

  it('on a laptop a long conversation title is shown whole, in the drawer and as the heading; on a phone it wraps', async () => {
    const title = 'Which vegetables grow well in partial shade outdoors';
    const answered = await ask(server.member, { message: 'Which vegetables grow well in partial shade?' });
    expect(answered.status).toBe(200);
    const id = answered.get('conversation').id as string;
    expect((await server.member.patch(`/api/chat/conversations/${id}`, { title })).status).toBe(200);

    const laptop: Page = await pages.open('member', DESKTOP);
    await laptop.goto(`${server.url}/chat/${id}`);
    const heading = laptop.getByRole('heading', { name: title, level: 1 });
    await shown(heading);
    const drawer = laptop.getByRole('complementary', { name: 'Your chats' });
    const row = drawer.getByRole('link', { name: title });
    await shown(row);
    expect(await whole(row.locator('.chat-list__title'))).toBe(true);
    expect(await whole(heading)).toBe(true);
    await expectNoSeriousA11yViolations(laptop, 'chat with a long title (laptop)');

    const phone = await pages.open('member', PHONE);
    await phone.goto(`${server.url}/chat/${id}`);
    const phoneHeading = phone.getByRole('heading', { name: title, level: 1 });
    await shown(phoneHeading);
    expect(await whole(phoneHeading)).toBe(true);
    // nothing wider than the phone
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(pages.pageErrors).toEqual([]);
  });
});
