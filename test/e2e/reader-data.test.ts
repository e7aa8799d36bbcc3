// The Reader's screens share one cache (features/reader/queries.ts): a change made on an article
// shows on the list at once when the person goes back, although the list was read a moment ago and
// is still fresh in the cache (the write invalidates it). Live links only: nothing is fetched.
// Needs the built web app (`npm run build:web`) and Chromium.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('the Reader keeps its screens in agreement', () => {
  let server: TestServer;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/tools/reader/enabled', { enabled: true })).status).toBe(200);
    browser = await launchChromium();
    ctx = await browser.newContext(PHONE);
    await ctx.addCookies([{ name: 'session', value: server.member.cookie!.slice('session='.length), url: server.url }]);
    page = await ctx.newPage();
  }, 60_000);

  afterAll(async () => {
    await ctx?.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('shows a status changed on the article in the list on the way back', async () => {
    expect((await server.member.post('/api/reader', { url: 'http://192.168.1.1/status', type: 'live', title: 'Router status' })).status).toBe(201);
    await page.goto(`${server.url}/reader`);
    const row = page.getByTestId('reader-item').filter({ hasText: 'Router status' });
    await shown(row.getByText('Unread', { exact: true }));
    await row.getByRole('link', { name: 'Router status' }).tap();
    await shown(page.getByRole('heading', { name: 'Router status' }));
    await page.getByRole('button', { name: 'More actions' }).tap();
    await page.getByRole('menuitem', { name: 'Mark read' }).tap();
    await shown(page.getByTestId('article-status').getByText('Reading'));
    await page.getByRole('link', { name: 'Reader', exact: true }).first().tap();
    await shown(row.getByText('Reading', { exact: true }));
    expect(await row.getByText('Unread', { exact: true }).count()).toBe(0);
  }, 30_000);
});
