// The shell's search in a real browser: a member on a 390 px phone opens it from the header,
// types a word that is in a saved Reader item, an archive article (the fixture ZIMs on the real
// kiwix-serve) and a page, sees the three groups, and opens the Reader item with arrow down and
// Enter; an archive result opens the article in the viewer. On a laptop the admin opens it with
// Ctrl+K and "/", and gets "Nothing found" and the quiet line for the archives when the archive
// server is stopped. axe finds no serious or critical problem in the open dialog.
// Needs the built web app (`npm run build:web`) and Debian's kiwix-tools and zim-tools.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { fixtureCatalog, installFixtureArchives } from '../harness/archives.js';
import { DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, signedInContext } from '../harness/browser.js';
import { freePort } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';

describe('the shell search in the browser', () => {
  const temp = makeTempDir();
  let zims: TestZims;
  let server: TestServer;
  let browser: Browser;
  let itemId: string;
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  async function open(as: 'admin' | 'member', device: typeof PHONE | typeof DESKTOP): Promise<Page> {
    const ctx = await signedInContext(browser, server.url, (as === 'admin' ? server.admin : server.member).cookie!, device);
    contexts.push(ctx);
    const page = await ctx.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    return page;
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    zims = buildTestZims();
    server = await startTestServer({
      seed: 'household',
      config: { archiveCatalogPath: fixtureCatalog(temp.dir, zims), archiveServerPort: await freePort(), kiwixServePath: kiwixServeOnPath() },
    });
    await installFixtureArchives(server, zims, temp.dir);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    // "heat" is in a saved item's title, in archive articles (Heat pump, Water heater) and in no page;
    // "downloads" finds the Downloads page
    const r = await server.member.post('/api/reader', { url: 'https://example.org/heat-tips', title: 'Heat tips for winter', type: 'live' });
    expect(r.status).toBe(201);
    itemId = r.body.item.id;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    zims?.remove();
    temp.remove();
  });

  it('on a phone: opens from the header, shows the groups as you type, arrow down and Enter open the Reader item', async () => {
    const page = await open('member', PHONE);
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Search Hearth' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Search Hearth' });
    await shown(dialog);
    const input = dialog.getByRole('combobox', { name: 'Search Hearth' });
    await input.fill('heat');
    const reader = dialog.getByRole('group', { name: 'Reader' });
    await shown(reader.getByRole('option', { name: /Heat tips for winter/ }));
    await shown(dialog.getByRole('group', { name: 'Offline archives' }).getByRole('option', { name: /Heat pump/ }));
    // the dialog fills the phone's width
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBe(390);
    await expectNoSeriousA11yViolations(page, 'search dialog (phone)');
    await page.screenshot({ path: '/tmp/hearth-phone-search.png' });

    // the first result is selected; arrow down moves on, arrow up comes back, Enter opens it
    await input.press('ArrowDown');
    await input.press('ArrowUp');
    expect(await reader.getByRole('option', { selected: true }).textContent()).toContain('Heat tips for winter');
    await input.press('Enter');
    await gone(dialog);
    await page.waitForURL(`${server.url}/reader/${itemId}`);
    await shown(page.getByRole('heading', { name: 'Heat tips for winter' }));

    // a page, and an archive article opened in the viewer
    await page.getByRole('button', { name: 'Search Hearth' }).tap();
    await dialog.getByRole('combobox').fill('downloads');
    await shown(dialog.getByRole('group', { name: 'Pages' }).getByRole('option', { name: /Downloads/ }));
    await dialog.getByRole('combobox').fill('water heater');
    await dialog.getByRole('group', { name: 'Offline archives' }).getByRole('option', { name: /^Water heater/ }).tap();
    await page.waitForURL(`${server.url}/read/fixturepedia/A/Water_heater`);
    const frame = page.frameLocator('[data-testid="reader-frame"]');
    await shown(frame.getByRole('heading', { name: 'Water heater', level: 1 }));
    expect(pageErrors).toEqual([]);
  });

  it('on a laptop: Ctrl+K and "/" open it, Esc closes it, nothing found says so, typing on cancels the last question, a stopped archive server is one quiet line', async () => {
    const page = await open('admin', DESKTOP);
    await page.goto(`${server.url}/`);
    await shown(page.getByRole('button', { name: 'Search Hearth' }));
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search Hearth' });
    await shown(dialog);
    await page.keyboard.type('pin');
    await shown(dialog.getByRole('group', { name: 'Pages' }).getByRole('option', { name: /Members/ }));
    await expectNoSeriousA11yViolations(page, 'search dialog (laptop)');
    await page.screenshot({ path: '/tmp/hearth-laptop-search.png' });
    await page.keyboard.press('Escape');
    await gone(dialog);

    await page.keyboard.press('/');
    await shown(dialog);
    await dialog.getByRole('combobox').fill('zyxwvut');
    await shown(dialog.getByText('Nothing found for “zyxwvut”.'));
    await page.keyboard.press('Escape');
    await gone(dialog);

    // typing on cancels the question still on its way: the first one is held, and given up
    const held: Array<() => void> = [];
    const isFirst = (u: URL | string) => new URL(String(u)).pathname === '/api/search' && new URL(String(u)).searchParams.get('q') === 'ladd';
    await page.route(isFirst, (route) => {
      held.push(() => void route.continue().catch(() => undefined));
    });
    const firstAsked = page.waitForRequest((r) => isFirst(r.url()));
    const firstCancelled = page.waitForEvent('requestfailed', (r) => isFirst(r.url()));
    await page.keyboard.press('/');
    await dialog.getByRole('combobox').fill('ladd');
    await firstAsked;
    await dialog.getByRole('combobox').fill('ladder');
    await firstCancelled;
    await shown(dialog.getByRole('group', { name: 'Offline archives' }).getByRole('option', { name: /^Ladder/ }));
    for (const release of held) release();
    await page.unroute(isFirst);
    await page.keyboard.press('Escape');
    await gone(dialog);

    await server.handle.deps.archives.stop();
    await page.keyboard.press('Control+k');
    await dialog.getByRole('combobox').fill('winter heat');
    await shown(dialog.getByTestId('search-unavailable'));
    expect(await dialog.getByTestId('search-unavailable').textContent()).toMatch(/^Not searched this time: Offline archives \(.*archive server.*\)\.$/i);
    // the admin does not see the member's item
    expect(await dialog.getByRole('group', { name: 'Reader' }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
