// The offline library in a real browser, against the real kiwix-serve with the fixture archives:
// the admin downloads archives on the Archives page (live progress, then installed), verifies them;
// a member opens the Library (Reference and Books shelves with the archives' own icons), reads an
// article in the reader, follows a link inside it, searches the archive and shuffles; dark mode
// reaches the archive pages; an archive that is not installed shows an empty state.
// Needs the built web app (`npm run build:web`) and Debian's kiwix-tools and zim-tools.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { FakeFileServer } from '../fakes/file-server.js';
import { FIXTURE_BOOKS, FIXTUREPEDIA, servedVariant, writeCatalog } from '../harness/archives.js';
import { freePort, waitFor } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';



describe('the offline library in the browser', () => {
  const temp = makeTempDir();
  let zims: TestZims;
  let files: FakeFileServer;
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(as: 'admin' | 'member', device: typeof PHONE | typeof DESKTOP = PHONE): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, (as === 'admin' ? server.admin : server.member).cookie!, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return page;
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    zims = buildTestZims();
    files = await new FakeFileServer().start();
    const pediaSize = readFileSync(zims.encyclopedia).length;
    const catalogFile = writeCatalog(temp.dir, [
      {
        ...FIXTUREPEDIA,
        variants: [servedVariant(files, 'fixturepedia.zim', zims.encyclopedia), servedVariant(files, 'fixturepedia-mini.zim', zims.encyclopedia, { key: 'mini', label: 'Introductions only' })],
      },
      { ...FIXTURE_BOOKS, variants: [servedVariant(files, 'fixturebooks.zim', zims.books)] },
    ]);
    // about 3 s for the encyclopedia, so the progress is visible
    files.behave('fixturepedia.zim', { throttleBps: Math.max(64 * 1024, Math.round(pediaSize / 3)) });
    server = await startTestServer({
      seed: 'household',
      config: { archiveCatalogPath: catalogFile, fetchAllowOrigins: [files.url], archiveServerPort: await freePort(), kiwixServePath: kiwixServeOnPath() },
    });
    // the admin has been through the welcome wizard
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await files?.close();
    zims?.remove();
    temp.remove();
  });

  it('shows a member an empty library that asks an admin', async () => {
    const page = await open('member');
    await page.goto(`${server.url}/library`);
    await shown(page.getByRole('heading', { name: 'Library', exact: true }));
    await shown(page.getByText('The shelves are empty'));
    await shown(page.getByText('Ask an admin'));
    expect(await page.getByRole('link', { name: 'Add archives' }).count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Archives' }).count()).toBe(0);
  });

  it('shows the server\'s own reason when it refuses a download', async () => {
    const page = await open('admin');
    // the refusal as the server words it (offline mode; the API tests cover the server side)
    await page.route('**/api/admin/archives/download/fixturebooks*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'offline_mode', message: 'Hearth is in offline mode, so it will not download archives.' } }),
      }),
    );
    await page.goto(`${server.url}/admin/archives`);
    const books = page.getByTestId('archive-fixturebooks');
    await books.getByRole('button', { name: 'Download Fixture books' }).tap();
    await shown(books.getByText('Hearth is in offline mode, so it will not download archives.'));
    await shown(books.getByRole('button', { name: 'Download Fixture books' }));
    await page.unroute('**/api/admin/archives/download/fixturebooks*');
    expect((await server.member.get('/api/archives/installed')).body.archives).toEqual([]);
  });

  it('lets the admin download archives with live progress, then verify them', async () => {
    const page = await open('admin');
    await page.goto(`${server.url}/library`);
    await shown(page.getByText('The shelves are empty'));
    await page.getByRole('link', { name: 'Add archives' }).tap();
    await shown(page.getByRole('heading', { name: 'Archives', exact: true }));
    // an admin's Archives page is under the Admin tab, which shows as the current one
    await shown(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin', exact: true }).and(page.locator('[aria-current="page"]')));
    // the free space arrives with the download plan, a moment after the page itself
    await shown(page.getByTestId('archives-summary').filter({ hasText: 'free on this computer' }));
    await shown(page.getByTestId('runtime-state').getByText('archives installed'));

    const pedia = page.getByTestId('archive-fixturepedia');
    await shown(pedia.getByLabel('Version'));
    expect(await pedia.getByLabel('Version').locator('option').count()).toBe(2);
    await page.screenshot({ path: '/tmp/hearth-phone-archives.png', fullPage: true });

    await pedia.getByRole('button', { name: 'Download Fixturepedia' }).tap();
    const bar = pedia.getByRole('progressbar', { name: 'Fixturepedia download' });
    await shown(bar);
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="archive-fixturepedia"] [role="progressbar"]')?.getAttribute('aria-valuenow') ?? 0) > 0,
      undefined,
      { timeout: 15_000 },
    );
    await shown(pedia.getByRole('button', { name: 'Cancel Fixturepedia' }));
    await page.screenshot({ path: '/tmp/hearth-phone-archives-downloading.png', fullPage: true });
    await shown(pedia.getByText('Installed'), 30_000);
    await shown(page.getByTestId('archives-notice').getByText('Fixturepedia is installed'));
    expect(await bar.count()).toBe(0);

    const books = page.getByTestId('archive-fixturebooks');
    await books.getByRole('button', { name: 'Download Fixture books' }).tap();
    await shown(books.getByText('Installed'), 30_000);
    await shown(page.getByTestId('runtime-state').getByText('Running · 2 archives installed'));

    await page.getByRole('button', { name: 'Verify archives' }).tap();
    await shown(page.getByTestId('verify-results').getByText('All 2 archives are healthy'));
    await page.screenshot({ path: '/tmp/hearth-phone-archives-installed.png', fullPage: true });

    const installed = (await server.member.get('/api/archives/installed')).body.archives.map((a: { sourceId: string }) => a.sourceId).sort();
    expect(installed).toEqual(['fixturebooks', 'fixturepedia']);
  });

  it('lets a member open the Library, read an article, follow a link, search and shuffle', async () => {
    const page = await open('member');
    await page.goto(`${server.url}/library`);
    const reference = page.getByTestId('shelf-reference');
    const pediaLink = reference.getByRole('link', { name: /Fixturepedia/ });
    await shown(pediaLink);
    await shown(page.getByTestId('shelf-books').getByRole('region', { name: 'How-to' }).getByRole('link', { name: /Fixture books/ }));
    // the archive's own icon, loaded through the favicon route
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.archive-icon')].every((i) => i.complete && i.naturalWidth > 0), undefined, { timeout: 10_000 });
    expect(await page.locator('img.archive-icon').count()).toBe(2);
    await page.screenshot({ path: '/tmp/hearth-phone-library.png', fullPage: true });

    await pediaLink.tap();
    await page.waitForURL(/\/read\/fixturepedia$/);
    await shown(page.getByRole('heading', { name: 'Fixturepedia' }));
    const frame = page.frameLocator('[data-testid="reader-frame"]');
    await shown(frame.locator('#firstHeading', { hasText: 'Fixturepedia' }));

    // an article, then a link inside it
    // Links inside the archive are followed with a click event sent to the link: the archive runs
    // sandboxed in an opaque origin, a frame process of its own that each page replaces, and a
    // pointer click sent the moment a page shows can reach the frame before it takes input.
    await frame.getByRole('link', { name: 'Water heater', exact: true }).first().dispatchEvent('click');
    await shown(frame.locator('#firstHeading', { hasText: 'Water heater' }));
    await shown(frame.getByText('Water heater is a household topic.').first());
    await page.screenshot({ path: '/tmp/hearth-phone-reader.png' });
    await frame.getByRole('link', { name: 'Heat pump', exact: true }).first().dispatchEvent('click');
    await shown(frame.locator('#firstHeading', { hasText: 'Heat pump' }));
    const reader = page.frames().find((f) => f.url().includes('/api/archives/view/fixturepedia/'))!;
    expect(reader.url()).toContain('/api/archives/view/fixturepedia/A/Heat_pump');

    // search inside the archive
    await page.getByRole('searchbox', { name: 'Search Fixturepedia' }).fill('heater');
    await page.getByRole('button', { name: 'Search', exact: true }).tap();
    const result = frame.locator('a[href*="A/Water_heater"]').first();
    await shown(result);
    expect(page.frames().some((f) => f.url().includes('/api/archives/view/fixturepedia/search?pattern=heater'))).toBe(true);
    await page.screenshot({ path: '/tmp/hearth-phone-reader-search.png' });
    await result.dispatchEvent('click');
    await shown(frame.locator('#firstHeading', { hasText: 'Water heater' }));

    // shuffle opens some article of this archive
    // (the archive runs sandboxed in an opaque origin: the app cannot read the frame, Playwright can)
    await page.getByRole('button', { name: 'Shuffle' }).tap();
    await waitFor(() => page.frames().find((f) => f.url().endsWith('/api/archives/view/fixturepedia/random')), 'the frame to open random', 10_000);
    const base = await waitFor(() => frame.locator('base').getAttribute('href').catch(() => null), 'the random article', 10_000);
    expect(base).toMatch(/^\/api\/archives\/view\/fixturepedia\/A\//);
    await shown(frame.locator('#firstHeading'));

    // back to the Library
    await page.getByRole('link', { name: 'Library', exact: true }).first().tap();
    await shown(page.getByTestId('shelf-reference'));
  });

  it('opens archive pages dark in dark mode, and shows an empty state for a missing archive', async () => {
    const page = await open('member', DESKTOP);
    await page.goto(`${server.url}/read/fixturebooks`);
    await shown(page.getByRole('heading', { name: 'Fixture books' }));
    const cookies = await page.context().cookies(`${server.url}/api/archives/view/fixturebooks/`);
    expect(cookies.find((c) => c.name === 'ld-theme')?.value).toBe('dark');
    const viewed = await page.request.get(`${server.url}/api/archives/view/fixturebooks/`);
    expect(viewed.status()).toBe(200);
    const darkFrame = page.frameLocator('[data-testid="reader-frame"]');
    await shown(darkFrame.locator('body'));
    const readerFrame = () => page.frames().find((f) => f.url().includes('/api/archives/view/fixturebooks/'))!;
    expect(await readerFrame().content()).toContain('color-scheme:dark');
    // a link followed inside the archive page stays dark: it runs sandboxed in an opaque origin, so
    // its navigation carries no cookies, and the page follows the device's scheme (dark here)
    await darkFrame.getByRole('link', { name: /Garden Notes/ }).dispatchEvent('click');
    await shown(darkFrame.locator('#firstHeading', { hasText: 'Garden Notes' }));
    expect(readerFrame().url()).toContain('/books/garden-notes/');
    expect(await readerFrame().evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(23, 19, 15)');
    await page.screenshot({ path: '/tmp/hearth-desktop-reader-dark.png' });

    await page.goto(`${server.url}/read/nosuch`);
    await shown(page.getByText('This archive is not installed'));
    expect(await page.getByRole('link', { name: 'Go to Archives' }).count()).toBe(0);
    const admin = await open('admin');
    await admin.goto(`${server.url}/read/nosuch`);
    await shown(admin.getByRole('link', { name: 'Go to Archives' }));
    await admin.screenshot({ path: '/tmp/hearth-phone-reader-missing.png' });

    // the admin deletes an archive after confirming; it leaves the Library
    await admin.goto(`${server.url}/admin/archives`);
    const books = admin.getByTestId('archive-fixturebooks');
    await books.getByRole('button', { name: 'Delete Fixture books' }).tap();
    const confirm = admin.getByRole('alertdialog', { name: 'Delete Fixture books?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).tap();
    await shown(admin.getByTestId('archives-notice').getByText('Fixture books was deleted.'));
    await shown(books.getByRole('button', { name: 'Download Fixture books' }));
    expect((await server.member.get('/api/archives/installed')).body.archives.map((a: { sourceId: string }) => a.sourceId)).toEqual(['fixturepedia']);
    expect(pageErrors).toEqual([]);
  });
});
