// Issue 36 in the browser, on a 390 px phone: an admin opens Maps from the Admin page, downloads the
// test region "Fixtureton" (the real PMTiles and roads from test/fixtures/maps, served by the file
// server fake) with live progress until it is installed, and sets the household's Home by searching
// for it; a member then searches "market" on the Map, picks Market Street, gets directions from Home
// and sees the steps. The map is drawn by MapLibre in Chromium's software WebGL (SwiftShader); when
// this Chromium has no WebGL the page must say so and keep search and directions usable as lists,
// which is what is asserted then (and, in a second page whose canvas refuses WebGL, always). The
// member also saves the street, renames and deletes it. axe finds nothing serious. Needs the built
// web app.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeFileServer } from '../fakes/file-server.js';
import { startFakeGeocoder, type FakeGeocoder } from '../fakes/geocoder.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { fixturetonRegion, writeMapCatalog } from '../harness/maps.js';
import { makeTempDir } from '../harness/temp-dir.js';


describe('offline maps in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  const files = new FakeFileServer();
  let photon: FakeGeocoder;
  const temp = makeTempDir('hearth-maps-e2e-');
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    await files.start();
    photon = await startFakeGeocoder('photon', [{ name: 'Copper Kettle Bakery', street: 'Mill Lane', city: 'Fixtureton', country: 'United Kingdom', lat: 52.1946, lon: 0.3049, kind: 'bakery' }]);
    const catalog = writeMapCatalog(temp.dir, [fixturetonRegion(files)]);
    server = await startTestServer({ seed: 'household', config: { mapCatalogPath: catalog, fetchAllowOrigins: [files.url], searchPath: ['/usr/bin', '/bin'] } });
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    // software WebGL, so MapLibre can draw in a headless Chromium without a GPU
    browser = await launchChromium(['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--ignore-gpu-blocklist']);
  });
  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await files.close();
    await photon?.close();
    temp.remove();
  });

  it('an admin installs a region and sets Home; a member finds a street and gets directions to it', async () => {
    const admin = await pages.open('admin', PHONE);
    await admin.goto(`${server.url}/admin`);
    await admin.getByRole('link', { name: /^Maps/ }).click();
    const region = admin.getByRole('listitem', { name: 'Fixtureton' });
    await shown(region.getByRole('button', { name: 'Download Fixtureton' }));
    await shown(admin.getByTestId('maps-free'));
    await expectNoSeriousA11yViolations(admin, '/admin/maps (phone)');
    await region.getByRole('button', { name: 'Download Fixtureton' }).click();
    // the region, its place names and its directions, then it shows as installed
    await shown(region.getByText('Installed'), 90_000);
    expect((await server.member.get('/api/maps/regions')).body.regions.map((r: { id: string; directions: string }) => [r.id, r.directions])).toEqual([['fixtureton', 'ready']]);

    await admin.getByRole('searchbox', { name: 'Search for the place' }).fill('high street');
    await admin.getByRole('button', { name: /^Set Home to High Street/ }).first().click();
    await shown(admin.getByRole('list', { name: 'Household places' }).getByText('Home'));
    // an online place search, asked only when a member presses Enter
    const online = admin.getByRole('region', { name: 'Online place search' });
    await online.getByLabel('Address').fill(photon.url);
    await online.getByRole('button', { name: 'Save' }).click();
    await shown(online.getByText(`In use: Photon at ${photon.url}.`));
    await expectNoSeriousA11yViolations(admin, '/admin/maps with a region (phone)');

    const page = await pages.open('member', PHONE);
    await page.goto(`${server.url}/maps`);
    const webgl = await page.evaluate(() => Boolean(document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl')));
    if (webgl) await expect.poll(() => page.getByTestId('map-view').getAttribute('data-state'), { timeout: 30_000 }).toBe('loaded');
    else await shown(page.getByTestId('map-unavailable').getByText(/cannot draw maps/));
    await page.getByRole('searchbox', { name: 'Search for a place' }).fill('market');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByRole('button', { name: /Market Street/ }).first().click();
    const card = page.getByRole('group', { name: 'About Market Street' });
    await shown(card.getByRole('heading', { name: 'Market Street' }));
    // directions start from the household's Home (this page is on 127.0.0.1, a secure context, so
    // "My location" is offered too)
    expect(await card.getByLabel('From').inputValue()).not.toBe('here');
    await card.getByRole('button', { name: 'On foot' }).click();
    await card.getByRole('button', { name: 'Directions' }).click();
    const steps = card.getByRole('list', { name: 'Steps' });
    await shown(steps);
    expect(await steps.getByRole('listitem').count()).toBeGreaterThan(1);
    expect(await steps.textContent()).toContain('Market Street');
    await expectNoSeriousA11yViolations(page, '/maps with a route (phone)');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // saved places: keep the street, rename it, delete it
    await card.getByRole('button', { name: 'Save place' }).click();
    const mine = page.getByRole('list', { name: 'Your places' });
    await mine.getByRole('button', { name: 'Rename Market Street' }).click();
    await mine.getByLabel('New name for Market Street').fill('The market');
    await mine.getByRole('button', { name: 'Save', exact: true }).click();
    await shown(mine.getByText('The market'));
    expect((await server.member.get('/api/maps/places')).body.places.map((p: { name: string; household: boolean }) => [p.name, p.household])).toEqual(
      expect.arrayContaining([
        ['The market', false],
        ['Home', true],
      ]),
    );
    await mine.getByRole('button', { name: 'Delete The market' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(async () => mine.getByText('The market').count()).toBe(0);

    // typing searches what is on this computer; Enter also asks the online place search
    const search = page.getByRole('searchbox', { name: 'Search for a place' });
    await search.fill('copper');
    await shown(results.getByRole('button', { name: /The Copper Kettle/ }));
    expect(photon.requests).toHaveLength(0);
    await search.press('Enter');
    await shown(results.getByRole('button', { name: /Copper Kettle Bakery.*found online/ }));
    expect(photon.requests.map((r) => r.query.q)).toEqual(['copper']);
    expect(pages.pageErrors).toEqual([]);
  });

  it('without WebGL the Map says so and search still works as a list', async () => {
    const page = await pages.open('member', PHONE);
    await page.addInitScript(() => {
      const real = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) {
        return kind.startsWith('webgl') ? null : (real as (...a: unknown[]) => unknown).call(this, kind, ...rest);
      } as typeof real;
    });
    await page.goto(`${server.url}/maps`);
    await shown(page.getByTestId('map-unavailable').getByText(/cannot draw maps.*Search, directions and your places still work/));
    expect(await page.getByTestId('map-view').count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search for a place' }).fill('market');
    await shown(page.getByRole('list', { name: 'Search results' }).getByRole('button', { name: /Market Street/ }).first());
    await expectNoSeriousA11yViolations(page, '/maps without WebGL (phone)');
    expect(pages.pageErrors).toEqual([]);
  });
});
