// Issue 38 in the browser at 390 px, against the ntfy and Telegram fakes and the model runtime
// fake: a member routes "Reminders and alerts" to ntfy, presses Test and the fake receives it; the
// Telegram link code and its t.me link are shown, and the status turns linked once the bot gets
// `/start <code>`; the admin's channels page shows the honest states and the delivery log; in chat
// the member picks the meal planner skill, its starter prompts show, and the answer's system prompt
// carries the skill. axe finds nothing serious. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeChatRequest, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { startFakeNtfy, startFakeTelegram, TELEGRAM_BOT, TELEGRAM_TOKEN, type FakeNtfy, type FakeTelegram } from '../fakes/notify.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('notification settings and chat skills in the browser', () => {
  let ntfy: FakeNtfy;
  let tg: FakeTelegram;
  let runtime: FakeModelRuntime;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    [ntfy, tg, runtime] = await Promise.all([startFakeNtfy(), startFakeTelegram(), startFakeModelRuntime()]);
    server = await startTestServer({
      seed: 'household',
      config: { telegramApiUrl: tg.url, fetchAllowOrigins: [tg.origin] },
      overrides: { modelRuntime: createOllamaClient({ baseUrl: runtime.url }), tuning: { telegramPollSeconds: 1, notifyBackoffMs: 20 } },
    });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    expect((await server.admin.put('/api/admin/notify/ntfy', { url: ntfy.url })).status).toBe(200);
    expect((await server.admin.put('/api/admin/notify/telegram', { botToken: TELEGRAM_TOKEN })).status).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await Promise.all([ntfy?.close(), tg?.close(), runtime?.close()]);
  });

  it('a member routes alerts to ntfy, tests it, and links Telegram with the code shown', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/profile/notifications`);
    await page.getByRole('textbox', { name: 'ntfy topic' }).fill('sam-phone');
    const alerts = page.getByRole('group', { name: 'Reminders and alerts' });
    // ntfy can be ticked once the topic is saved
    expect(await alerts.getByRole('checkbox', { name: 'ntfy' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shown(page.getByText('Saved.', { exact: true }));
    await alerts.getByRole('checkbox', { name: 'ntfy' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await shown(page.getByText('Saved.', { exact: true }));
    expect((await server.member.get('/api/notify/routes')).body.routes.system).toEqual(['inapp', 'ntfy']);

    await page.getByRole('button', { name: 'Test ntfy' }).click();
    await shown(page.getByTestId('notify-test-ntfy').getByText('Sent. Delivered by ntfy.'));
    expect(ntfy.messages.at(-1)).toMatchObject({ topic: 'sam-phone', title: 'Test from Hearth' });

    await page.getByRole('button', { name: 'Link Telegram' }).click();
    const code = (await page.getByTestId('telegram-code').innerText()).trim();
    expect(await page.getByTestId('telegram-link').getAttribute('href')).toBe(`https://t.me/${TELEGRAM_BOT}?start=${code}`);
    await shown(page.getByText('Waiting for you to press Start in Telegram…'));
    await expectNoSeriousA11yViolations(page, '/profile/notifications (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    tg.userSends(90210, `/start ${code}`);
    await shown(page.getByText(`Linked to your Telegram chat with @${TELEGRAM_BOT}.`));
    expect(pages.pageErrors).toEqual([]);
  });

  it('the admin sees each channel’s state and the delivery log', async () => {
    const page = await pages.open('admin', PHONE);
    await page.goto(`${server.url}/notifications/channels`);
    await shown(page.getByTestId('channel-state-telegram').getByText(`Connected to @${TELEGRAM_BOT}, listening for link codes.`));
    await shown(page.getByTestId('channel-state-gotify').getByText('Not connected.'));
    await shown(page.getByText('Delivered by ntfy.', { exact: false }));
    await expectNoSeriousA11yViolations(page, '/notifications/channels (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // the member's settings at 1280 px: the linked chat and the saved route
    const wide = await pages.open('member', DESKTOP);
    await wide.goto(`${server.url}/profile/notifications`);
    await shown(wide.getByText(`Linked to your Telegram chat with @${TELEGRAM_BOT}.`));
    expect(await wide.getByRole('group', { name: 'Reminders and alerts' }).getByRole('checkbox', { name: 'ntfy' }).isChecked()).toBe(true);
    await expectNoSeriousA11yViolations(wide, '/profile/notifications (desktop)');
  });

  it('a member picks a skill for a chat and starts from one of its prompts', async () => {
    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/chat`);
    await page.getByRole('combobox', { name: 'Skill' }).selectOption({ label: 'Meal planner' });
    const starters = page.getByRole('list', { name: 'Ways to start with Meal planner' });
    await shown(starters);
    await expectNoSeriousA11yViolations(page, '/chat with a skill (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    runtime.requests.length = 0;
    await starters.getByRole('button', { name: 'Plan dinners for this week for four people' }).click();
    await page.waitForURL(/\/chat\/[^/?]+\?skill=builtin-meal-planner$/);
    await shown(page.getByRole('article', { name: 'Answer' }).last());
    const asked = runtime.requests.filter((r) => r.path === '/api/chat').map((r) => r.body as FakeChatRequest).find((b) => b.format === undefined);
    expect(String(asked?.messages[0]?.content)).toContain('Skill "Meal planner"');
    expect(pages.pageErrors).toEqual([]);
  });
});
