// The Reader says what is true, content first, on a phone: a link whose page cannot be fetched is
// never announced as saved offline and no raw error code (ENOTFOUND, ECONNREFUSED, HTTP 403…)
// reaches the screen; the article offers one Retry and one "Open original".
// A "dead" origin (a loopback port nobody listens on, allowed through FETCH_ALLOW_ORIGINS) stands in
// for a site that cannot be reached. Needs the built web app (`npm run build:web`) and Chromium.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { CHAT_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Winter Soup for a Crowd</title></head><body><main><article>
<h1>Winter Soup for a Crowd</h1>${'<p>Start with a large pot, a splash of oil and three chopped onions; let them soften slowly for twenty minutes before anything else goes in, and keep the heat low.</p>'.repeat(6)}
</article></main></body></html>`;

/** What must never be on a household member's screen. */
const RAW_CODE = /\bE[A-Z]{4,}\b|EAI_|net::|ERR_[A-Z]|HTTP \d{3}/;

async function freePort(): Promise<number> {
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the Reader is honest on a phone', () => {
  let server: TestServer;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let deadOrigin: string;
  let site: Server;
  let siteUrl: string;
  let ollama: FakeModelRuntime;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    requireBuiltWebApp();
    deadOrigin = `http://127.0.0.1:${await freePort()}`;
    site = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(ARTICLE));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    ollama = await startFakeModelRuntime({ chunkDelayMs: 1 });
    server = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [deadOrigin, siteUrl], chromiumPath: CHROMIUM_PATH },
      overrides: { modelRuntime: createOllamaClient({ baseUrl: ollama.url }) },
    });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/tools/reader/enabled', { enabled: true })).status).toBe(200);
    browser = await launchChromium();
    ctx = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  }, 60_000);

  afterAll(async () => {
    await ctx?.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await ollama?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('does not announce a page it could not fetch as saved, says why in words, and offers one Retry and one Open original', async () => {
    await page.goto(`${server.url}/reader`);
    await page.getByRole('button', { name: /^Add (your first )?link$/ }).first().tap();
    const sheet = page.getByTestId('add-link-dialog');
    await sheet.getByLabel('Address').fill(`${deadOrigin}/news/today`);
    await sheet.getByRole('button', { name: 'Save offline' }).tap();
    await shown(page.getByTestId('reader-item'));

    const notice = page.getByTestId('reader-notice');
    await shown(notice.getByText(/could not keep a copy to read offline/), 45_000);
    const said = (await notice.textContent()) ?? '';
    expect(said).not.toContain('Hearth is keeping a copy');
    expect(said).toMatch(/refused the connection|could not be reached/);
    expect(said).toContain('Retry');
    const failed = page.getByTestId('reader-item').locator('[data-testid="archive-state"][data-state="failed"]');
    await shown(failed);
    expect(await page.locator('main').innerText()).not.toMatch(RAW_CODE);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-honest-failed.png' });

    await page.getByTestId('reader-item').getByRole('link').first().tap();
    await shown(page.getByText('Hearth could not save a copy', { exact: true }));
    expect(await page.getByRole('button', { name: /^Retry/ }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /Re-archive|fresh copy/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Open original' }).count()).toBe(1);
    expect(await page.locator('main').innerText()).not.toMatch(RAW_CODE);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-honest-article-failed.png', fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('opens on the items: the first saved item is in the first screen of a 390 px phone, filters are in a sheet and show as removable chips', async () => {
    const first = (await server.member.post('/api/reader', { url: 'https://kitchen.example/bread', type: 'live', title: 'Bread basics', tags: ['kitchen'], collectionName: 'Kitchen' })).body.item;
    for (const [i, title] of ['Making stock', 'Jam jars', 'Pickles'].entries()) {
      const r = await server.member.post('/api/reader', { url: `https://kitchen.example/${i}`, type: 'live', title, tags: ['kitchen', `shelf${i}`, `pantry-jar-${i}`, `weekend-${i}`], collectionId: first.collectionId });
      expect(r.status).toBe(201);
    }
    await page.setViewportSize(PHONE.viewport);
    await page.goto(`${server.url}/reader`);
    const item = page.getByTestId('reader-item').first();
    await shown(item);
    const box = (await item.boundingBox())!;
    const title = (await item.getByRole('link').first().boundingBox())!;
    console.log(`first Reader item top on a 390x844 phone: ${Math.round(box.y)} px`);
    // the first item's title is on the first screen, without scrolling
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(title.y + title.height).toBeLessThanOrEqual(PHONE.viewport.height);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-content-first.png' });

    // the filters live in a sheet; what is chosen shows as chips that remove themselves
    await page.getByRole('button', { name: /^Filters/ }).tap();
    const sheet = page.getByRole('dialog', { name: 'Filters' });
    await shown(sheet);
    await sheet.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Unread' }).tap();
    await sheet.getByRole('button', { name: /^#shelf1/ }).tap();
    await shown(sheet.getByRole('button', { name: /Kitchen/ }));
    expect(await sheet.getByRole('group', { name: 'Layout' }).count()).toBe(1);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-filters-sheet.png' });
    await sheet.getByRole('button', { name: 'Show results' }).tap();
    await shown(page.getByRole('button', { name: 'Remove filter: Unread' }));
    await shown(page.getByRole('button', { name: 'Remove filter: #shelf1' }));
    await shown(page.getByTestId('reader-item').filter({ hasText: 'Jam jars' }));
    expect(await page.getByTestId('reader-item').count()).toBe(1);
    await page.getByRole('button', { name: 'Remove filter: #shelf1' }).tap();
    await shown(page.getByTestId('reader-item').filter({ hasText: 'Pickles' }));
    expect(await page.getByRole('button', { name: 'Remove filter: #shelf1' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove filter: Unread' }).tap();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('the article on a 320 px phone: one primary action and a "More actions" menu that fit and work by keyboard, tabs not clipped, no Summarize with the AI runtime down', async () => {
    const created = await server.member.post('/api/reader', { url: `${siteUrl}/soup`, type: 'offline' });
    expect(created.status).toBe(201);
    const id: string = created.body.item.id;
    await waitFor(async () => (await server.member.get(`/api/reader/${id}`)).body.item.archiveState === 'ready', 'the capture', 45_000);
    // a chat model is chosen but the model runtime is not running
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await ollama.setMode('down');

    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(`${server.url}/reader/${id}`);
    await shown(page.getByTestId('reader-content'));
    const views = page.getByRole('group', { name: 'How to show it' });
    await shown(views.getByRole('button', { name: 'Archived full page' }));
    const inside = async (what: string, l: Locator) => {
      const b = (await l.boundingBox())!;
      expect(b.x, what).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width, what).toBeLessThanOrEqual(320);
    };
    await inside('Open original', page.getByRole('link', { name: 'Open original' }));
    await inside('More actions', page.getByRole('button', { name: 'More actions' }));
    for (const tab of await views.getByRole('button').all()) {
      await inside((await tab.getAttribute('aria-label')) ?? 'tab', tab);
      // its text is whole, not cut
      expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

    // the local AI is down: Summarize and Ask are not offered, the reason and the fix are
    await shown(page.getByTestId('ai-unavailable').getByText(/not running on the Hearth computer\. Start Ollama on the Hearth computer\./));
    expect(await page.getByRole('button', { name: 'Summarize' }).count()).toBe(0);
    expect(await page.getByLabel('Ask a question about the article').count()).toBe(0);
    await page.screenshot({ path: '/tmp/hearth-phone-320-article.png', fullPage: true });

    // the menu by keyboard: open with Enter, the items fit, arrow to Archive, Enter
    await page.getByRole('button', { name: 'More actions' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await shown(menu);
    for (const item of await menu.getByRole('menuitem').all()) await inside((await item.textContent()) ?? 'item', item);
    expect(await menu.getByRole('menuitem', { name: /Re-archive/ }).count()).toBe(0);
    await page.screenshot({ path: '/tmp/hearth-phone-320-article-menu.png' });
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toBe('Archive');
    await page.keyboard.press('Enter');
    await shown(page.getByTestId('article-notice').getByText('Archived.'));
    await shown(page.getByTestId('article-status').getByText('Archived'));
    // Escape closes it again and focus goes back to the button
    await page.getByRole('button', { name: 'More actions' }).focus();
    await page.keyboard.press('Enter');
    await shown(menu);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('More actions');
    await ollama.setMode('ok');
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('gives a link without a title its address as a title (host › path) in the list, the article and Home', async () => {
    for (const p of ['docs/setup', 'docs/faq']) {
      const r = await server.member.post('/api/reader', { url: `http://192.168.1.20/${p}`, type: 'live' });
      expect(r.status).toBe(201);
    }
    await page.setViewportSize(PHONE.viewport);
    await page.goto(`${server.url}/reader`);
    const setup = page.getByTestId('reader-item').getByRole('link', { name: '192.168.1.20 › docs/setup' });
    await shown(setup);
    await shown(page.getByTestId('reader-item').getByRole('link', { name: '192.168.1.20 › docs/faq' }));
    await setup.tap();
    await shown(page.getByRole('heading', { name: '192.168.1.20 › docs/setup', level: 1 }));
    await page.goto(`${server.url}/`);
    await shown(page.getByTestId('widget-reader').getByRole('link', { name: '192.168.1.20 › docs/faq' }));
    expect(pageErrors).toEqual([]);
  }, 30_000);
});
