// The Reader in a real browser on a phone, against a real Hearth that captures a real page in
// Chromium: a member sees the empty state, is told clearly when an address is refused (a loopback
// port outside the allow-list), saves a local article offline and watches it go from saving to
// ready, opens it from Home in the reader view (its text and its picture served by Hearth; the live
// page and the sandboxed archived page offered), it turns "reading", the local AI (an Ollama fake)
// first is not there, then summarizes and answers; finds it by a word from its body (list and grid
// fit 360 px), archives it; a page that cannot be saved says why, with Retry, and is deleted; a live
// link shows its page inside Hearth and is edited; a bookmarks file imports with progress and
// per-row errors and exports again; an admin's household link reaches the member, who hides it;
// the admin recategorizes and deletes it.
// The article is served by a node:http server on 127.0.0.1:0 that Hearth may reach only through
// FETCH_ALLOW_ORIGINS. Needs the built web app (`npm run build:web`) and Chromium.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { createOllamaClient } from '../../server/adapters/model-runtime/ollama.js';
import { CHAT_MODEL, EMBEDDING_MODEL, startFakeModelRuntime, type FakeModelRuntime } from '../fakes/model-runtime.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const DESKTOP = { viewport: { width: 1280, height: 800 } };
/** A word that appears only in the article's body (not its title, excerpt or address). */
const BODY_WORD = 'quinceberry';
const BLOCKED = 'http://127.0.0.1:1/';


const paragraphs = [
  'Every autumn the household gathers the last apples from the old tree behind the shed. The fruit is small and sharp, and it keeps for months in a cool cellar if each one is wrapped in paper.',
  'The trick with a slow jam is patience. Chop the fruit, leave the skins on, and let it sit with sugar overnight so the juice comes out on its own before any heat is applied. Our <a href="/recipes/pectin">pectin guide</a> explains why.',
  `Our grandmother added a handful of ${BODY_WORD} to every batch, which gives the jam its colour and a faint taste of honey. Nobody else on the street has ever heard of it.`,
  'Simmer gently for forty minutes, stirring from the bottom. A spoonful on a cold saucer should wrinkle when pushed with a finger; that is how you know it will set.',
  'Pour into warm jars, seal at once and label them with the date. They keep for a year on a dark shelf, though in our house they rarely last past the new year.',
];

const ARTICLE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Autumn Apple Jam, the Slow Way</title>
<meta name="author" content="Maria Hearthwood">
<meta property="og:site_name" content="The Pantry Journal">
<meta name="description" content="How our family makes apple jam from the old tree, slowly.">
<link rel="icon" type="image/png" href="/pantry-icon.png">
</head><body>
<header><nav><a href="/">Home</a> · <a href="/recipes">Recipes</a></nav></header>
<main><article>
<h1>Autumn Apple Jam, the Slow Way</h1>
<p class="byline">By Maria Hearthwood</p>
${paragraphs.slice(0, 2).map((p) => `<p>${p}</p>`).join('\n')}
<figure><img src="/images/jars.png" alt="Jars of apple jam on a shelf" width="320" height="200"><figcaption>Jars of apple jam on a shelf</figcaption></figure>
${paragraphs.slice(2).map((p) => `<p>${p}</p>`).join('\n')}
</article></main>
<footer><p>© The Pantry Journal</p></footer>
</body></html>`;

const BOOKMARKS = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
  <DT><H3>Kitchen</H3>
  <DL><p>
    <DT><A HREF="https://bread.example/basics" ADD_DATE="1700000000" TAGS="baking">Bread basics</A>
    <DT><A HREF="https://soup.example/stock">Making stock</A>
    <DT><A HREF="javascript:alert(1)">Not a page</A>
  </DL><p>
</DL><p>`;

describe('the Reader in the browser', () => {
  const temp = makeTempDir();
  let site: Server;
  let siteUrl: string;
  let server: TestServer;
  let ollama: FakeModelRuntime;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  let page: Page;

  beforeAll(async () => {
    requireBuiltWebApp();
    const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 181, g: 74, b: 34 } } })
      .png()
      .toBuffer();
    const icon = await sharp({ create: { width: 48, height: 48, channels: 4, background: { r: 40, g: 120, b: 60, alpha: 1 } } })
      .png()
      .toBuffer();
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/articles/apple-jam') {
        // a little slow, so the saving state is on screen for a moment
        setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(ARTICLE), 600);
      } else if (url.pathname === '/pantry-icon.png') {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': icon.length }).end(icon);
      } else if (url.pathname === '/images/jars.png') {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length }).end(png);
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not here');
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

    // the local AI: no chat model chosen at first (so Hearth says it is not running), then one
    // no chat model in Ollama yet (one it had would be adopted as the household's): added later
    ollama = await startFakeModelRuntime({ chunkDelayMs: 1, models: [EMBEDDING_MODEL] });
    ollama.chatReply = (req) =>
      req.format ? JSON.stringify({ summary: 'A slow apple jam recipe from the family tree.', tags: ['Preserves', 'apples'] }) : 'Simmer it gently for forty minutes.';
    server = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [siteUrl], chromiumPath: CHROMIUM_PATH },
      overrides: { modelRuntime: createOllamaClient({ baseUrl: ollama.url }) },
    });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.put('/api/tools/reader/enabled', { enabled: true })).status).toBe(200);

    browser = await launchChromium();
    const ctx = await signedInContext(browser, server.url, server.member.cookie!, PHONE);
    contexts.push(ctx);
    page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
  }, 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await ollama?.close();
    await new Promise((resolve) => site?.close(resolve));
    temp.remove();
  });

  it('shows a member the empty Reader with a way to add a first link', async () => {
    await page.goto(`${server.url}/reader`);
    await shown(page.getByRole('heading', { name: 'Reader', exact: true }));
    await shown(page.getByText('Nothing saved yet'));
    await shown(page.getByRole('button', { name: 'Add your first link' }));
    await page.screenshot({ path: '/tmp/hearth-phone-reader-empty.png' });
  });

  it('says clearly when an address is refused', async () => {
    const refusal = await server.member.get(`/api/reader/probe?url=${encodeURIComponent(BLOCKED)}`);
    expect(refusal.status).toBe(400);
    expect(refusal.body.error.code).toBe('blocked_url');
    const message: string = refusal.body.error.message;
    expect(message.length).toBeGreaterThan(10);

    await page.getByRole('button', { name: 'Add your first link' }).tap();
    const sheet = page.getByTestId('add-link-dialog');
    await shown(sheet);
    await sheet.getByLabel('Address').fill(BLOCKED);
    // the probe's refusal, under the address
    await shown(sheet.getByText(message).first());
    await sheet.getByRole('button', { name: 'Save offline' }).tap();
    await shown(sheet.getByText(message).first());
    expect((await server.member.get('/api/reader')).body.total).toBe(0);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-blocked.png' });
    await sheet.getByRole('button', { name: 'Cancel' }).tap();
    await gone(sheet);
  });

  it('saves an article offline, shows it saving, then ready', async () => {
    const articleUrl = `${siteUrl}/articles/apple-jam`;
    await page.getByRole('button', { name: 'Add link' }).tap();
    const sheet = page.getByTestId('add-link-dialog');
    await sheet.getByLabel('Address').fill(articleUrl);
    await shown(sheet.getByText('Hearth can reach it'));
    expect(await sheet.getByLabel('Save offline').isChecked()).toBe(true);
    await sheet.getByLabel('Collection (optional)').selectOption({ label: 'New collection…' });
    await sheet.getByLabel('New collection name').fill('Recipes');
    await sheet.getByLabel('Tags (optional)').fill('jam, autumn');
    await sheet.getByRole('button', { name: 'Save offline' }).tap();
    await gone(sheet);
    // the banner follows the capture: saving, then ready (never "saved" for a copy that failed)
    await shown(page.getByTestId('reader-notice').getByText(/keeping a copy to read offline|ready to read, even offline/));

    const item = page.getByTestId('reader-item');
    await shown(item);
    // pending or fetching: a spinner badge while Hearth captures the page
    const saving = item.locator('[data-testid="archive-state"][data-state="pending"], [data-testid="archive-state"][data-state="fetching"]');
    await shown(saving, 5_000);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-saving.png' });
    // the page polls until the capture is done: the badge goes and the real title arrives
    await gone(saving, 45_000);
    expect(await item.locator('[data-testid="archive-state"]').count()).toBe(0);
    await shown(item.getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }));
    await shown(item.getByText('#jam'));
    // the site's icon, from Hearth's own copy (the page's CSP allows no other), and it loads
    const icon = item.locator('.reader-item__site img.reader-favicon');
    await shown(icon);
    expect(await icon.getAttribute('src')).toBe(`/api/reader/${await item.getAttribute('data-id')}/favicon`);
    await expect.poll(() => icon.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
    // on a phone the collections are in the Filters sheet, with their counts
    await page.getByRole('button', { name: /^Filters/ }).tap();
    const collections = page.getByTestId('reader-filters');
    await shown(collections.getByRole('button', { name: /Recipes/ }));
    expect(await collections.getByRole('button', { name: /Recipes/ }).textContent()).toContain('1');
    await collections.getByRole('button', { name: 'Close' }).tap();
    await gone(collections);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-list.png', fullPage: true });
    // the narrowest phones: nothing sticks out sideways, in the list or the grid
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: /^Filters/ }).tap();
    await page.getByTestId('reader-filters').getByRole('button', { name: 'Grid' }).tap();
    await page.getByTestId('reader-filters').getByRole('button', { name: 'Show results' }).tap();
    await shown(page.locator('.reader-list.card-list--grid'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-grid-360.png', fullPage: true });
    await page.reload();
    await shown(page.locator('.reader-list.card-list--grid')); // the layout is remembered on this device
    await page.getByRole('button', { name: /^Filters/ }).tap();
    await page.getByTestId('reader-filters').getByRole('button', { name: 'List' }).tap();
    await page.getByTestId('reader-filters').getByRole('button', { name: 'Show results' }).tap();
    await page.setViewportSize(PHONE.viewport);
    const rows = (await server.member.get('/api/reader')).body.items;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ archiveState: 'ready', status: 'unread', type: 'offline', faviconUrl: `/api/reader/${rows[0].id}/favicon` });
    expect([...rows[0].tags].sort()).toEqual(['autumn', 'jam']);
    // an icon that does not load shows the bookmark mark instead
    await page.route('**/api/reader/*/favicon', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: '{"error":{"code":"not_found","message":"none"}}' }));
    await page.reload();
    await shown(item.locator('.reader-item__site .reader-favicon--fallback'));
    expect(await icon.count()).toBe(0);
    await page.unroute('**/api/reader/*/favicon');
  }, 60_000);

  it('opens it from Home in the reader view with its text and local picture, it becomes reading, and the local AI summarizes it and answers', async () => {
    await page.goto(`${server.url}/`);
    const widget = page.getByTestId('widget-reader');
    await shown(widget.getByText('1 unread item.'));
    await widget.getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }).tap();
    await shown(page.getByRole('heading', { name: 'Autumn Apple Jam, the Slow Way', level: 1 }));
    // the site's icon beside its name, from Hearth
    const siteIcon = page.locator('.reader-article__head img.reader-favicon');
    await shown(siteIcon);
    expect(await siteIcon.getAttribute('src')).toMatch(/^\/api\/reader\/[^/]+\/favicon$/);
    await expect.poll(() => siteIcon.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 10_000 }).toBe(true);
    const content = page.getByTestId('reader-content');
    await shown(content);
    await shown(content.getByText(`a handful of ${BODY_WORD}`));
    await shown(content.getByText('wrinkle when pushed with a finger'));
    // links inside the article open in a new tab, not over Hearth
    const inner = content.getByRole('link', { name: 'pectin guide' });
    expect(await inner.getAttribute('target')).toBe('_blank');
    expect(await inner.getAttribute('rel')).toBe('noopener noreferrer');
    // the picture comes from Hearth, not from the site, and it loads
    const img = content.locator('img').first();
    await shown(img);
    const src = await img.getAttribute('src');
    expect(src).toMatch(/^\/api\/reader\/[^/]+\/archive\//);
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLImageElement>('[data-testid="reader-content"] img');
      return Boolean(el && el.complete && el.naturalWidth > 0);
    }, undefined, { timeout: 10_000 });
    await shown(page.getByTestId('article-status').getByText('Reading'));
    const original = page.getByRole('link', { name: 'Open original' }).first();
    expect(await original.getAttribute('target')).toBe('_blank');
    expect(await original.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-article.png', fullPage: true });
    // the site allows frames, so the live page is offered too; the archived page is sandboxed
    const views = page.getByRole('group', { name: 'How to show it' });
    await shown(views.getByRole('button', { name: 'Live page' }), 10_000);
    await views.getByRole('button', { name: 'Archived full page' }).tap();
    const archived = page.locator('iframe[title^="Archived full page"]');
    await shown(archived);
    expect(await archived.getAttribute('sandbox')).toBe('');
    expect(await archived.getAttribute('src')).toMatch(/^\/api\/reader\/[^/]+\/archive\/index\.html$/);
    await views.getByRole('button', { name: 'Reader view' }).tap();
    await shown(content);
    // no chat model chosen yet: Summarize and Ask are not offered; the reason and the fix are
    await shown(page.getByTestId('ai-unavailable').getByText(/No chat model is installed yet\. Install a chat model in Admin › Features\./));
    expect(await page.getByRole('button', { name: 'Summarize' }).count()).toBe(0);
    // with a chat model: the TL;DR, the suggested tags (added to the item), and an answer
    ollama.models = [CHAT_MODEL, EMBEDDING_MODEL];
    await server.handle.deps.settings.set('chat_model', CHAT_MODEL.name);
    await page.getByTestId('ai-unavailable').getByRole('button', { name: 'Check again' }).tap();
    await page.getByRole('button', { name: 'Summarize' }).tap();
    const summary = page.getByTestId('summary');
    await shown(summary.getByText('A slow apple jam recipe from the family tree.'));
    await shown(summary.getByText(/#preserves/));
    await shown(page.getByRole('list', { name: 'Tags' }).getByText('#preserves'));
    await page.getByLabel('Ask a question about the article').fill('How long does it simmer?');
    await page.getByRole('button', { name: 'Ask', exact: true }).tap();
    await shown(page.getByTestId('answer').getByText('Simmer it gently for forty minutes.'));
    await page.screenshot({ path: '/tmp/hearth-phone-reader-ai.png', fullPage: true });
    expect((await server.member.get('/api/reader')).body.items[0].status).toBe('reading');
  }, 30_000);

  it('finds it by a word from its body, and archives it', async () => {
    await page.getByRole('link', { name: 'Reader', exact: true }).first().tap();
    const search = page.getByLabel('Search your Reader');
    await shown(search);
    await search.fill(BODY_WORD.slice(0, 7)); // prefix match on the last word
    await shown(page.getByTestId('reader-item').getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }));
    await search.fill('zanzibarwombat');
    await shown(page.getByText('Nothing matches'));
    await search.fill(BODY_WORD);
    await shown(page.getByTestId('reader-item'));
    await page.screenshot({ path: '/tmp/hearth-phone-reader-search.png' });
    // Back from the article returns to the same search
    await page.waitForURL(/[?&]q=quinceberry/);
    await page.getByTestId('reader-item').getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }).tap();
    await shown(page.getByTestId('reader-content'));
    await page.goBack();
    expect(await page.getByLabel('Search your Reader').inputValue()).toBe(BODY_WORD);
    await shown(page.getByTestId('reader-item').getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }));

    await page.getByTestId('reader-item').getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }).tap();
    await page.getByRole('button', { name: 'More actions' }).tap();
    await page.getByRole('menuitem', { name: 'Archive', exact: true }).tap();
    await shown(page.getByTestId('article-status').getByText('Archived'));
    await shown(page.getByTestId('article-notice').getByText('Archived.'));
    expect((await server.member.get('/api/reader')).body.items[0].status).toBe('archived');

    await page.getByRole('link', { name: 'Reader', exact: true }).first().tap();
    await page.getByLabel('Search your Reader').fill('');
    const filters = page.getByTestId('reader-filters');
    await page.getByRole('button', { name: /^Filters/ }).tap();
    await filters.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Archived' }).tap();
    await filters.getByRole('button', { name: 'Show results' }).tap();
    await shown(page.getByRole('button', { name: 'Remove filter: Archived' }));
    await shown(page.getByTestId('reader-item').getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }));
    await page.getByRole('button', { name: /^Filters/ }).tap();
    await filters.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Unread' }).tap();
    await filters.getByRole('button', { name: 'Show results' }).tap();
    await shown(page.getByText('Nothing matches'));
    await page.getByRole('button', { name: 'Remove filter: Unread' }).tap();
    expect(pageErrors).toEqual([]);
  }, 30_000);

  it('shows why a page could not be saved, with Retry', async () => {
    await page.goto(`${server.url}/reader`);
    await page.getByRole('button', { name: 'Add link' }).tap();
    const sheet = page.getByTestId('add-link-dialog');
    await sheet.getByLabel('Address').fill(`${siteUrl}/articles/gone`);
    await sheet.getByRole('button', { name: 'Save offline' }).tap();
    await gone(sheet);
    const item = page.getByTestId('reader-item').filter({ hasText: '127.0.0.1' });
    const failed = item.locator('[data-testid="archive-state"][data-state="failed"]');
    await shown(failed, 30_000);
    await shown(failed.getByText('Could not save'));
    const reason = (await failed.locator('.reader-failed__why').textContent()) ?? '';
    expect(reason.length).toBeGreaterThan(5);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-failed.png' });
    await failed.getByRole('button', { name: /^Retry saving/ }).tap();
    await shown(page.getByTestId('reader-notice').getByText('Trying to save it again.'));
    await shown(item.locator('[data-testid="archive-state"][data-state="failed"]'), 30_000);
    // it is no use to anyone: delete it from the article view
    await item.getByRole('link').first().tap();
    await page.getByRole('button', { name: 'More actions' }).tap();
    await page.getByRole('menuitem', { name: 'Delete', exact: true }).tap();
    const confirm = page.getByTestId('delete-item');
    await shown(confirm);
    await confirm.getByRole('button', { name: 'Delete', exact: true }).tap();
    await shown(page.getByRole('heading', { name: 'Reader', exact: true }));
    await gone(item);
  }, 45_000);

  it('keeps a live link that opens inside Hearth, and edits it', async () => {
    await page.goto(`${server.url}/reader`);
    await page.getByRole('button', { name: 'Add link' }).tap();
    const sheet = page.getByTestId('add-link-dialog');
    await sheet.getByLabel('Address').fill(`${siteUrl}/articles/apple-jam?live=1`);
    await sheet.getByText('Keep as live link').tap();
    await shown(sheet.getByText('It can also be shown inside Hearth.'));
    await sheet.getByRole('button', { name: 'Save link' }).tap();
    await gone(sheet);
    const item = page.getByTestId('reader-item').filter({ has: page.getByText('Live link', { exact: true }) });
    await shown(item);
    expect(await item.locator('[data-testid="archive-state"]').count()).toBe(0);
    await item.getByRole('link').first().tap();
    // no offline copy: the live page is shown inside Hearth, since the site allows frames
    const frame = page.locator('iframe[title^="Live page"]');
    await shown(frame);
    expect(await frame.getAttribute('src')).toBe(`${siteUrl}/articles/apple-jam?live=1`);
    await shown(page.frameLocator('iframe[title^="Live page"]').getByText(`a handful of ${BODY_WORD}`));
    await page.getByRole('button', { name: 'More actions' }).tap();
    await shown(page.getByRole('menuitem', { name: 'Refresh preview' }));
    await page.getByRole('menuitem', { name: 'Edit', exact: true }).tap();
    const edit = page.getByTestId('edit-item');
    await edit.getByLabel('Title').fill('Jam, live');
    await edit.getByLabel('Tags').fill('jam, pantry');
    await edit.getByRole('button', { name: 'Save' }).tap();
    await gone(edit);
    await shown(page.getByRole('heading', { name: 'Jam, live', level: 1 }));
    await shown(page.getByText('#pantry'));
    await page.screenshot({ path: '/tmp/hearth-phone-reader-live.png', fullPage: true });
  }, 30_000);

  it('manages collections and tags, and watches a page for changes', async () => {
    await page.goto(`${server.url}/reader`);
    await page.getByRole('button', { name: /^Filters/ }).tap();
    await page.getByTestId('reader-filters').getByRole('button', { name: 'Collections and tags' }).tap();
    const manage = page.getByTestId('manage-collections');
    await shown(manage.getByText('Recipes'));
    await shown(manage.getByRole('button', { name: /Show items tagged jam/ }));
    await manage.getByLabel('Name', { exact: true }).fill('Weekend');
    await manage.getByLabel('Icon (optional)').fill('🌤');
    await manage.getByLabel('Colour (optional)').selectOption({ label: 'Teal' });
    await manage.getByRole('button', { name: 'Add collection' }).tap();
    await shown(manage.getByText('Added “Weekend”.'));
    await manage.getByLabel('Name', { exact: true }).fill('Weekend');
    await manage.getByRole('button', { name: 'Add collection' }).tap();
    await shown(manage.getByText('You already have a collection called “Weekend”.'));
    await manage.getByRole('button', { name: 'Rename Weekend' }).tap();
    await manage.getByLabel('New name for Weekend').fill('Sundays');
    await manage.getByRole('button', { name: 'Save', exact: true }).tap();
    await shown(manage.getByText('Renamed to “Sundays”.'));
    await manage.getByRole('button', { name: 'Delete Sundays' }).tap();
    await manage.getByRole('alert').getByRole('button', { name: 'Delete', exact: true }).tap();
    await shown(manage.getByText('Deleted “Sundays”.'));
    const names = (await server.member.get('/api/reader/collections')).body.collections.map((c: any) => c.name);
    expect(names).toEqual(['Recipes']);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-collections.png', fullPage: true });
    await manage.getByRole('button', { name: 'Close' }).tap();
    await gone(manage);

    // the change monitor on the saved article
    await page.getByRole('button', { name: /^Filters/ }).tap();
    await page.getByTestId('reader-filters').getByRole('button', { name: /Recipes/ }).tap();
    await page.getByTestId('reader-item').getByRole('link', { name: 'Autumn Apple Jam, the Slow Way' }).tap();
    const monitor = page.getByTestId('monitor');
    await monitor.getByRole('checkbox', { name: 'Check this page for changes' }).check();
    await shown(monitor.getByLabel('How often'));
    await monitor.getByLabel('How often').selectOption({ label: 'Every 6 hours' });
    await shown(page.getByTestId('article-notice').getByText('Saved how often to check.'));
    await monitor.getByRole('checkbox', { name: 'Notify me when it changes' }).check();
    await shown(page.getByTestId('article-notice').getByText('You will get a notification when it changes.'));
    const saved = (await server.member.get('/api/reader')).body.items.find((i: any) => i.title === 'Autumn Apple Jam, the Slow Way');
    expect(saved).toMatchObject({ autoUpdate: true, autoUpdateIntervalMins: 360, alertOnChange: true });
    await shown(monitor.getByRole('heading', { name: 'Change history' }));
  }, 30_000);

  it('keeps the router page as a plain link, and says beside the switch why Hearth cannot watch it', async () => {
    const { item } = (await server.member.post('/api/reader', { url: 'http://192.168.1.1/status', type: 'live', title: 'Router status' })).body;
    await page.goto(`${server.url}/reader/${item.id}`);
    await shown(page.getByRole('heading', { name: 'Router status' }));
    const monitor = page.getByTestId('monitor');
    const watch = monitor.getByRole('checkbox', { name: 'Check this page for changes' });
    await watch.scrollIntoViewIfNeeded();
    await watch.tap();
    const why = monitor.getByRole('alert');
    await shown(why.getByText(/private or local network/));
    expect(await why.textContent()).toContain('cannot save a copy of it, watch it for changes');
    expect(await why.isVisible()).toBe(true);
    expect(await watch.isChecked()).toBe(false); // the switch went back
    expect((await server.member.get(`/api/reader/${item.id}`)).body.item.autoUpdate).toBe(false);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-refused-watch.png', fullPage: true });
  });

  it('imports a bookmarks file with progress, a summary and the entries it could not read; exports them again', async () => {
    const file = path.join(temp.dir, 'bookmarks.html');
    writeFileSync(file, BOOKMARKS);
    await page.goto(`${server.url}/reader`);
    await page.getByRole('button', { name: 'Import / export' }).tap();
    const sheet = page.getByTestId('import-export');
    await shown(sheet);
    await sheet.getByLabel('Choose a bookmarks file').setInputFiles(file);
    await sheet.getByRole('button', { name: 'Import', exact: true }).tap();
    const result = sheet.getByTestId('import-result');
    await shown(result, 20_000);
    expect(await result.textContent()).toContain('Imported 2 links');
    await shown(result.getByText('Collections: Kitchen'));
    await result.getByText('1 entry could not be read').tap();
    await shown(result.getByText('Not a page'));
    await shown(sheet.getByRole('progressbar', { name: 'Import progress' }));
    expect(await sheet.getByRole('progressbar', { name: 'Import progress' }).getAttribute('aria-valuenow')).toBe('100');
    await page.screenshot({ path: '/tmp/hearth-phone-reader-import.png', fullPage: true });

    const exportLink = sheet.getByRole('link', { name: 'Bookmarks file (live links)' });
    expect(await exportLink.getAttribute('download')).not.toBeNull();
    const exported = await page.request.get(`${server.url}${await exportLink.getAttribute('href')}`);
    expect(exported.status()).toBe(200);
    expect(await exported.text()).toContain('Bread basics');
    expect(await sheet.getByRole('link', { name: 'Everything (JSON)' }).getAttribute('href')).toBe('/api/reader/export/json');
    await sheet.getByRole('button', { name: 'Close' }).tap();
    await gone(sheet);
    await shown(page.getByTestId('reader-item').getByRole('link', { name: 'Bread basics' }));
  }, 40_000);

  it('lets an admin add a household link that members see and can hide for themselves; the admin recategorizes and deletes it', async () => {
    const ctx = await signedInContext(browser, server.url, server.admin.cookie!, DESKTOP);
    contexts.push(ctx);
    const admin = await ctx.newPage();
    admin.on('pageerror', (err) => pageErrors.push(`admin: ${err.message}`));
    await admin.goto(`${server.url}/reader`);
    // the admin has saved nothing: the empty Reader is one empty state, without the filter panel
    // (waiting for it, not for the sidebar, which only shows while the list is loading)
    await shown(admin.getByText('Nothing saved yet'));
    expect(await admin.getByRole('complementary', { name: 'Collections' }).count()).toBe(0);
    await admin.getByRole('link', { name: 'Household links' }).click();
    await shown(admin.getByRole('heading', { name: 'Household links', exact: true }));
    await shown(admin.getByText('No household links yet'));
    await admin.getByRole('button', { name: 'Add household link' }).first().click();
    const dialog = admin.getByTestId('global-link-dialog');
    await dialog.getByLabel('Address').fill('https://school.example/portal');
    await dialog.getByLabel('Name (optional)').fill('School portal');
    expect(await dialog.getByLabel('Category').inputValue()).toBe('Services');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await gone(dialog);
    await shown(admin.getByRole('region', { name: 'Services' }).getByText('School portal'));
    await admin.screenshot({ path: '/tmp/hearth-desktop-reader-admin.png', fullPage: true });

    await page.goto(`${server.url}/reader`);
    const row = page.getByTestId('reader-item').filter({ hasText: 'School portal' });
    await shown(row);
    await shown(row.getByText('Household'));
    // nothing hidden yet: no switch about hidden links
    const showHidden = page.getByRole('checkbox', { name: /Show hidden household links/ });
    expect(await showHidden.count()).toBe(0);
    await row.getByRole('button', { name: 'Hide School portal' }).tap();
    await gone(row);
    await shown(page.getByText('Show hidden household links (1)'));
    await showHidden.check();
    await shown(row.getByText('Hidden'));
    await row.getByRole('button', { name: 'Show School portal' }).tap();
    await shown(page.getByTestId('reader-notice').getByText('Shown in your Reader again.'));
    // turning it off when nothing is hidden any more also takes the switch away
    await showHidden.click(); // (not uncheck(): the switch is gone before its state can be read back)
    await shown(row);
    await gone(showHidden);
    await admin.goto(`${server.url}/reader`);
    await shown(admin.getByTestId('reader-item').filter({ hasText: 'School portal' }));
    await admin.screenshot({ path: '/tmp/hearth-desktop-reader.png' });

    // the admin moves it to another category, then deletes it for everyone
    await admin.goto(`${server.url}/admin/reader`);
    await admin.getByRole('button', { name: 'Edit School portal' }).click();
    await dialog.getByLabel('Category').fill('School');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await gone(dialog);
    await shown(admin.getByRole('region', { name: 'School' }).getByText('School portal'));
    await admin.getByRole('button', { name: 'Delete School portal' }).click();
    await admin.getByTestId('delete-global-link').getByRole('button', { name: 'Delete', exact: true }).click();
    await shown(admin.getByText('No household links yet'));
    await page.reload();
    await shown(page.getByTestId('reader-list').or(page.getByText('Nothing saved yet')));
    expect(await page.getByTestId('reader-item').filter({ hasText: 'School portal' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 40_000);

  it('keeps a question typed in the Ask box through a sign-out and a sign-in in the same tab', async () => {
    // a session of its own, so signing it out leaves the other tests' member session alone
    const own = await server.signIn(server.users.member.id, MEMBER.pin);
    const ctx = await signedInContext(browser, server.url, own.cookie!, DESKTOP);
    contexts.push(ctx);
    const tab = await ctx.newPage();
    tab.on('pageerror', (err) => pageErrors.push(`ask draft: ${err.message}`));
    const jam = (await server.member.get('/api/reader')).body.items.find((i: any) => i.title === 'Autumn Apple Jam, the Slow Way');
    await tab.goto(`${server.url}/reader/${jam.id}`);
    const question = tab.getByLabel('Ask a question about the article');
    await question.fill('Can I use plums instead?');

    await tab.getByRole('button', { name: 'Sign out' }).click();
    await shown(tab.getByRole('heading', { name: 'Who’s using Hearth?' }));
    await tab.getByRole('button', { name: MEMBER.name }).click();
    await shown(tab.getByRole('heading', { name: `Hi, ${MEMBER.name}` }));
    await tab.keyboard.type(MEMBER.pin);
    await tab.keyboard.press('Enter');
    // signed in again (back on the page the session ended on), the question is still there
    await shown(tab.getByRole('button', { name: 'Sign out' }));
    if (!tab.url().endsWith(`/reader/${jam.id}`)) await tab.goto(`${server.url}/reader/${jam.id}`);
    await shown(question);
    expect(await question.inputValue()).toBe('Can I use plums instead?');
    // asked: the draft goes
    await tab.getByRole('button', { name: 'Ask', exact: true }).click();
    await shown(tab.getByTestId('answer').getByText('Simmer it gently for forty minutes.'));
    expect(await question.inputValue()).toBe('');
  }, 30_000);
});
