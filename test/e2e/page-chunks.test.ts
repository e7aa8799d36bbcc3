// Each page of the web app is its own file, fetched when the page is first opened. When that file
// does not arrive (the connection dropped, or Hearth was updated and the old file is gone), the
// page says so in a sentence with a way on, inside the shell, and a reload brings the page.
// Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';

describe('a page whose code does not arrive', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ seed: 'household' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('says it did not load, keeps the navigation, and opens after a reload', async () => {
    const ctx = await browser.newContext(PHONE);
    const cookie = server.member.cookie!;
    await ctx.addCookies([{ name: 'session', value: cookie.slice('session='.length), url: server.url }]);
    const page = await ctx.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));

    // the Downloads page's own file is cut off on its way
    let blocked = 0;
    await page.route(/\/assets\/DownloadsPage-[^/]+\.js$/, (route) => {
      blocked++;
      return route.abort('connectionreset');
    });
    await page.goto(`${server.url}/downloads`);
    await shown(page.getByRole('heading', { name: 'This page did not load' }));
    expect(blocked).toBeGreaterThan(0);
    await shown(page.getByRole('alert').getByText('Reloading gets the newest version'));
    expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    // still inside the shell: the navigation is there
    await shown(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }));

    await page.unroute(/\/assets\/DownloadsPage-[^/]+\.js$/);
    await page.getByRole('button', { name: 'Try again' }).tap();
    await shown(page.getByRole('heading', { name: 'Downloads', level: 1 }));
    expect(await page.getByRole('heading', { name: 'This page did not load' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await ctx.close();
  });

  it("asks for the opened page's first data beside the session, not after it, and only once", async () => {
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    const ctx = await browser.newContext(PHONE);
    await ctx.addCookies([{ name: 'session', value: server.admin.cookie!.slice('session='.length), url: server.url }]);
    const page = await ctx.newPage();
    const usersAsked: string[] = [];
    let usersSeen!: () => void;
    const seen = new Promise<void>((resolve) => (usersSeen = resolve));
    page.on('request', (r) => {
      if (new URL(r.url()).pathname !== '/api/admin/users') return;
      usersAsked.push(r.method());
      usersSeen();
    });
    // the session's answer is held until the Members list has been asked for: without the early
    // request the page would wait for the session first, and never open
    await page.route('**/api/auth/session', async (route) => {
      await seen;
      await route.continue();
    });
    try {
      await page.goto(`${server.url}/members`);
      await shown(page.getByRole('heading', { name: 'Members', level: 1 }));
      await shown(page.getByText(MEMBER.name).first());
      expect(usersAsked).toEqual(['GET']);
    } finally {
      usersSeen();
      await ctx.close();
    }
  });
});
