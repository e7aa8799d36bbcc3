// Installable and resilient: the web app manifest and its icons are served as a browser needs them,
// and with the service worker installed a reload while the Hearth computer is off shows "Hearth is
// not reachable" (with Try again) instead of the browser's error page; the same screen covers the
// app when the API stops answering mid-session. The screen asks again by itself and leaves when
// Hearth answers, with nobody tapping Try again. Needs the built web app (`npm run build:web`).
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBootConfig } from '../../renderer/first-paint.js';
import { gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { rawRequest } from '../harness/raw-http.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('the web app installed and offline', () => {
  let server: TestServer | undefined;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close();
    await server?.close();
    expect(pageErrors).toEqual([]);
  });

  async function openAsMember(s: TestServer): Promise<Page> {
    const ctx = await signedInContext(browser, s.url, s.member.cookie!, PHONE);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return page;
  }

  /** The member on Home, with the service worker ready (the app shell cached). */
  async function homeWithWorker(s: TestServer): Promise<Page> {
    const page = await openAsMember(s);
    await page.goto(s.url);
    await shown(page.getByTestId('home-name'));
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    return page;
  }

  /** The Hearth computer goes off. */
  async function switchOff(): Promise<void> {
    await server?.close();
    server = undefined;
  }

  /**
   * The computer goes off mid-session: the next call (the home screen is read again when the tab
   * comes back into view) gets no answer, and the screen covers the app.
   */
  async function offMidSession(page: Page): Promise<Locator> {
    await switchOff();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const screen = page.getByTestId('not-reachable');
    await shown(screen);
    return screen;
  }

  /** The same household comes back on the same address; the screen leaves with nobody tapping. */
  async function backOn(page: Page, dataDir: string, port: number): Promise<void> {
    server = await startTestServer({ dataDir, port });
    await gone(page.getByTestId('not-reachable'));
    await shown(page.getByTestId('home-name'));
  }

  it('serves a valid manifest whose icons are reachable, and the service worker and index.html are never cached for long', async () => {
    server = await startTestServer({ seed: 'household' });
    const manifest = await rawRequest(server.url, { path: '/manifest.webmanifest' });
    expect(manifest.status).toBe(200);
    expect(String(manifest.headers['content-type'])).toContain('application/manifest+json');
    expect(String(manifest.headers['cache-control'])).toBe('no-cache');
    const m = JSON.parse(manifest.text) as { name: string; short_name: string; start_url: string; display: string; theme_color: string; background_color: string; icons: Array<{ src: string; sizes: string; type: string; purpose?: string }> };
    expect(m).toMatchObject({ name: 'Hearth', short_name: 'Hearth', start_url: '/', display: 'standalone' });
    expect(m.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(m.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(m.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(m.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of m.icons) {
      const r = await rawRequest(server.url, { path: icon.src });
      expect(r.status, icon.src).toBe(200);
      expect(r.headers['content-type'], icon.src).toBe('image/png');
    }

    // (registered by index.html's start-up loader: no registerSW.js)
    for (const p of ['/sw.js']) {
      const r = await rawRequest(server.url, { path: p });
      expect(r.status, p).toBe(200);
      expect(String(r.headers['content-type']), p).toContain('javascript');
      expect(r.headers['cache-control'], p).toBe('no-cache');
    }
    const index = await rawRequest(server.url, { path: '/' });
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.text).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    // the worker leaves /api and /docs to the server
    const sw = (await rawRequest(server.url, { path: '/sw.js' })).text;
    expect(sw).toContain('denylist');
    // it precaches the first screen (index.html, its script and the Latin font), not every page's
    // code nor the other alphabets: those are kept when first used
    const index0 = readBootConfig(index.text).entry.replace(/^\//, '');
    expect(index0).toBeTruthy();
    for (const url of ['index.html', index0!]) expect(sw).toContain(`url:"${url}"`);
    expect(sw).toMatch(/url:"assets\/inter-latin-wght-normal-[^"]+\.woff2"/);
    expect(sw).not.toMatch(/url:"assets\/(ArticlePage|MembersPage|SetupWizard)-/);
    expect(sw).not.toMatch(/url:"assets\/inter-(cyrillic|greek|vietnamese|latin-ext)/);
    expect(sw).toContain('hearth-assets');
    await switchOff();
  });

  it('when the API stops answering the app says Hearth is not reachable, and with the service worker a reload while Hearth is off says the same', async () => {
    server = await startTestServer({ seed: 'household' });
    const page = await homeWithWorker(server);
    const screen = await offMidSession(page);
    expect(await screen.getByRole('heading', { level: 1 }).textContent()).toBe('Hearth is not reachable');

    // Try again while it is still off: the screen stays
    const retried = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/system/ready');
    await screen.getByRole('button', { name: 'Try again' }).tap();
    await retried;
    await shown(screen.getByRole('button', { name: 'Try again', disabled: false }));
    await shown(screen);

    // a reload (or opening from the home screen) gets the cached app, not the browser's error page
    await page.reload();
    await shown(page.getByTestId('not-reachable'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Hearth is not reachable');
    const text = await page.getByTestId('not-reachable').textContent();
    expect(text).toContain('switched on');
    expect(text).toContain('same Wi-Fi');
    await shown(page.getByRole('button', { name: 'Try again' }));
    await page.screenshot({ path: '/tmp/hearth-phone-not-reachable.png' });
  });

  it('leaves the screen by itself when Hearth answers again, mid-session and after a reload while it was off', async () => {
    // the same household on the same address, as when the Hearth computer wakes up again
    const data = makeTempDir();
    try {
      server = await startTestServer({ seed: 'household', dataDir: data.dir });
      const port = Number(new URL(server.url).port);
      const page = await homeWithWorker(server);

      // mid-session: the computer goes off, the screen covers the app, the computer comes back
      await offMidSession(page);
      await backOn(page, data.dir, port);

      // opened while the computer is off (the cached app): the same, without a click
      await switchOff();
      await page.reload();
      await shown(page.getByTestId('not-reachable'));
      await backOn(page, data.dir, port);
      await switchOff();
    } finally {
      data.remove();
    }
  });
});
