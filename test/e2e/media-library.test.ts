// The Media page and a title on a phone against the fake Plex: not connected (a member is told an
// admin can connect it); connected and linked (Sam as the friend alice), the rails show continue
// watching, recently added and now playing; a title opens with its poster, is added to the member's
// own watchlist and marked watched (the fake's state says so); axe on each screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageOpener, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('the Media page on a phone', () => {
  let fake: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const pages = createPageOpener(() => ({ browser, server }));
  const { pageErrors } = pages;

  beforeAll(async () => {
    requireBuiltWebApp();
    fake = await startFakeMediaServer();
    server = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { tuning: { mediaHealthTtlMs: 0 } },
    });
    browser = await launchChromium();
    page = await pages.open('member', PHONE);
  });
  afterAll(async () => {
    await pages.closeAll();
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  it('not connected: the member is told an admin can connect the household’s Plex', async () => {
    await page.goto(`${server.url}/media`);
    await shown(page.getByText('The household’s Plex is not connected yet'));
    await shown(page.getByText(/An admin can connect the household’s Plex/));
    await expectNoSeriousA11yViolations(page);
  });

  it('connected and linked: the feeds, a title, add to my watchlist, mark watched', async () => {
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    await page.goto(`${server.url}/media`);
    await shown(page.getByTestId('media-link-card'));
    const pin = await server.member.post('/api/mediaserver/auth/pin');
    fake.approvePin(pin.body.id, 'alice');
    expect((await server.member.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status).toBe(200);

    await page.goto(`${server.url}/media`);
    const ondeck = page.getByTestId('rail-ondeck');
    await shown(ondeck.getByRole('link', { name: /The Night Harbor/ }));
    await shown(page.getByTestId('rail-recent').getByRole('link', { name: /Harbor Lights · Season 1/ }));
    await shown(page.getByTestId('rail-sessions').getByText(/alice on Alice's phone \(paused\)/));
    const poster = ondeck.locator('img').first();
    expect(await poster.getAttribute('src')).toMatch(/^\/api\/mediaserver\/img\?path=/);
    await expectNoSeriousA11yViolations(page);

    // the card links to the title's page (the rail scrolls sideways; open it by its address)
    expect(await page.getByTestId('rail-recent').getByRole('link', { name: /Glass Orchard/ }).getAttribute('href')).toBe('/media/title/103');
    await page.goto(`${server.url}/media/title/103`);
    await shown(page.getByRole('heading', { name: 'Glass Orchard (2015)' }));
    await shown(page.getByRole('link', { name: 'Play' }));
    await page.getByRole('button', { name: 'Add to my watchlist' }).click();
    await shown(page.getByRole('button', { name: 'On my watchlist' }));
    expect(fake.state().watchlists.alice).toContain('Glass Orchard');
    await page.getByRole('button', { name: 'Mark as watched' }).click();
    await shown(page.getByRole('button', { name: 'Watched', exact: true }));
    expect(fake.state().views.alice!['103']).toMatchObject({ viewCount: 1 });
    await expectNoSeriousA11yViolations(page);
    expect(pageErrors).toEqual([]);
  });
});
