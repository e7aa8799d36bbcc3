// The signed-in person's own page, /profile (renderer/src/features/profile/ProfilePage.tsx), opened
// from the profile menu under their name in the header, and its "Plex account" row (features/media/PlexAccountRow.tsx)
// against the fake Plex: hidden while no media server is connected; then, on a phone, a member who
// has not linked is sent to /media/link, one linked (as alice, through the PIN flow's routes) sees
// the account's name with Link again and Unlink, unlinks and is back to "Not linked"; after Plex
// signed Hearth out the row says so with Link again. On a laptop an admin's row and the Members
// link. axe on each screen; no Plex token in any answer the browser received or a log line. Needs
// the built web app (`npm run build:web`).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown } from '../harness/browser.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('your profile and its Plex account row', () => {
  let fake: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  const scan = createTokenScan();

  const pages = createPageOpener(() => ({ browser, server }), (page, as) => scan.watchPage(page, as));
  const { open, pageErrors } = pages;

  /** The profile, opened from the header; resolves once the Media status has answered. */
  async function openProfile(page: Page) {
    await page.goto(`${server.url}/`);
    const status = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/mediaserver/status' && r.request().frame() === page.mainFrame());
    await page.getByTestId('current-user').click();
    await page.getByRole('menuitem', { name: 'Your profile and PIN' }).click();
    await shown(page.getByRole('heading', { name: 'Your profile', level: 1 }));
    await status;
    return page.getByRole('group', { name: 'Plex account' });
  }

  /** Links the member's Plex account as alice through the PIN flow's routes (the browser test of the flow is media-link). */
  async function linkMemberAsAlice() {
    const pin = await server.member.post('/api/mediaserver/auth/pin', {});
    expect(pin.status).toBe(201);
    fake.approvePin(pin.body.id, 'alice');
    expect((await server.member.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status).toBe(200);
  }

  beforeAll(async () => {
    requireBuiltWebApp();
    fake = await startFakeMediaServer();
    server = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { tuning: { mediaHealthTtlMs: 0 } },
    });
    scan.watch(server);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await fake?.close();
  });

  it('on a phone the profile has no Plex account row while no media server is connected', async () => {
    const page = await open('member', PHONE);
    const row = await openProfile(page);
    await shown(page.getByText('An admin changes your name and picture.', { exact: false }));
    expect(await row.count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'profile (no media server)');
    await page.close();
  });

  it('on a phone a member not linked is sent to /media/link; linked, sees the account and unlinks; signed out by Plex, is offered Link again', async () => {
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    const page = await open('member', PHONE);
    let row = await openProfile(page);
    await shown(row.getByText('Not linked.', { exact: false }));
    await expectNoSeriousA11yViolations(page, 'profile (not linked)');
    await row.getByRole('link', { name: 'Link my Plex account' }).click();
    await shown(page.getByRole('heading', { name: 'Link my Plex account', level: 1 }));

    await linkMemberAsAlice();
    row = await openProfile(page);
    await shown(row.getByTestId('plex-account').getByText('alice'));
    await shown(row.getByText('Linked as', { exact: false }));
    expect(await row.getByRole('link', { name: 'Link again' }).getAttribute('href')).toBe('/media/link');
    await expectNoSeriousA11yViolations(page, 'profile (linked)');
    await page.screenshot({ path: '/tmp/hearth-phone-profile.png' });
    await row.getByRole('button', { name: 'Unlink' }).click();
    await shown(row.getByText('Not linked.', { exact: false }));
    expect((await server.member.get('/api/mediaserver/me')).body.linked).toBe(false);

    // Plex signs Hearth out of the account (a password change): the row says so and offers Link again
    await linkMemberAsAlice();
    fake.revoke(fake.tokens.alice);
    fake.revoke(fake.tokens.aliceServer);
    await server.member.get('/api/mediaserver/status');
    row = await openProfile(page);
    await shown(row.getByText('Plex signed Hearth out of', { exact: false }));
    await shown(row.getByRole('link', { name: 'Link again' }));
    await expectNoSeriousA11yViolations(page, 'profile (signed out by Plex)');
    expect(pageErrors).toEqual([]);
  });

  it('on a laptop an admin sees their profile, the Members link and their Plex account row', async () => {
    const page = await open('admin', DESKTOP);
    const row = await openProfile(page);
    await shown(page.getByRole('main').getByText('Admin', { exact: true }));
    await shown(page.getByRole('main').getByRole('link', { name: 'Members' }));
    await shown(row.getByText('Not linked.', { exact: false }));
    await expectNoSeriousA11yViolations(page, 'profile (admin, laptop)');
    expect(pageErrors).toEqual([]);
  });

  it('no Plex token reached the browser or a log line', async () => {
    await pages.closeAll();
    await scan.settled();
    scan.expectNoTokens(fake.allTokens());
  });
});
