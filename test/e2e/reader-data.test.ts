// The Reader's screens share one cache (features/reader/queries.ts): a change made on an article
// shows on the list at once when the person goes back, although the list was read a moment ago and
// is still fresh in the cache (the write invalidates it). The Reader uses the app's shared parts:
// the Filters sheet is ui/Sheet, the search field's clear button is a labelled "Clear search"
// (not the browser's blue one), the bookmarks import picks its file through ui/FilePicker, and
// short confirmations ("Moved to Cooking.", "Deleted …") are toasts. An empty Reader shows one
// loading state until its list answers, then its empty state, never the filters in between.
// Live links only: nothing is fetched.
// Needs the built web app (`npm run build:web`) and Chromium.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
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
    ctx = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
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

  it('uses the app\'s sheet for Filters and its own labelled button to clear the search', async () => {
    await page.goto(`${server.url}/reader`);
    const search = page.getByRole('searchbox', { name: 'Search your Reader' });
    await shown(search);
    expect(await search.getAttribute('type')).not.toBe('search'); // no native blue cancel button
    expect(await page.getByRole('button', { name: 'Clear search' }).count()).toBe(0);
    await search.fill('router');
    await page.getByRole('button', { name: 'Clear search' }).tap();
    expect(await search.inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Clear search' }).count()).toBe(0);

    await page.getByRole('button', { name: /^Filters/ }).tap();
    const filters = page.getByTestId('reader-filters');
    await shown(filters);
    expect(await filters.getAttribute('class')).toMatch(/\bsheet\b/);
    await filters.getByRole('button', { name: 'Show results' }).tap();
  }, 30_000);

  it('picks the bookmarks file with the app\'s file picker', async () => {
    await page.goto(`${server.url}/reader`);
    await page.getByRole('button', { name: 'Import / export' }).first().tap();
    const sheet = page.getByTestId('import-export');
    await shown(sheet.getByText('No file chosen'));
    const input = sheet.getByLabel('Choose a bookmarks file');
    expect(await input.getAttribute('class')).toMatch(/file-picker__input/);
    await input.setInputFiles({ name: 'bookmarks.html', mimeType: 'text/html', buffer: Buffer.from('<DL><DT><A HREF="https://example.org/">Example</A></DL>') });
    await shown(sheet.getByText('bookmarks.html'));
    await sheet.getByRole('button', { name: 'Close' }).first().tap();
  }, 30_000);

  it('says "Moved to …" and "Deleted …" in a toast', async () => {
    expect((await server.member.post('/api/reader/collections', { name: 'Cooking' })).status).toBe(201);
    const { item } = (await server.member.post('/api/reader', { url: 'http://192.168.1.1/soup', type: 'live', title: 'Soup notes' })).body;
    await page.goto(`${server.url}/reader/${item.id}`);
    await shown(page.getByRole('heading', { name: 'Soup notes' }));
    await page.getByRole('button', { name: 'More actions' }).tap();
    await page.getByRole('menuitem', { name: 'Edit' }).tap();
    const edit = page.getByTestId('edit-item');
    await edit.getByLabel('Collection').selectOption({ label: 'Cooking' });
    await edit.getByRole('button', { name: 'Save' }).tap();
    await shown(page.getByTestId('toast').getByText('Moved to Cooking.'));

    await page.getByRole('button', { name: 'More actions' }).tap();
    await page.getByRole('menuitem', { name: 'Delete', exact: true }).tap();
    await page.getByTestId('delete-item').getByRole('button', { name: 'Delete', exact: true }).tap();
    await shown(page.getByTestId('toast').getByText('Deleted “Soup notes”.'));
    await shown(page.getByRole('heading', { name: 'Reader', exact: true }));
  }, 30_000);

  it('shows one loading state, not the filters, until an empty Reader\'s list answers', async () => {
    const ctx2 = await signedInContext(browser, server.url, server.admin.cookie!, PHONE);
    try {
      const tab = await ctx2.newPage();
      // the list is held back until the test lets it through
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const listAsked = new Promise<void>((resolve) => (asked = resolve));
      await tab.route(/\/api\/reader\?/, async (route) => {
        asked();
        await held;
        await route.continue();
      });
      await tab.goto(`${server.url}/reader`);
      await listAsked;
      await shown(tab.getByText('Loading your Reader…'));
      expect(await tab.getByRole('button', { name: /^Filters/ }).count()).toBe(0);
      expect(await tab.getByRole('searchbox', { name: 'Search your Reader' }).count()).toBe(0);
      expect(await tab.getByRole('heading', { name: 'Collections' }).count()).toBe(0);
      release();
      await shown(tab.getByText('Nothing saved yet'));
      expect(await tab.getByRole('button', { name: /^Filters/ }).count()).toBe(0);
      expect(await tab.getByRole('searchbox', { name: 'Search your Reader' }).count()).toBe(0);
    } finally {
      await ctx2.close();
    }
  }, 30_000);
});
