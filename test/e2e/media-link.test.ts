// Linking Plex in a real browser against the fake Plex (issue 19): on a phone a member links their
// own account with the PIN (shown big, the Plex page as a link, and for another device the short
// page, plex.tv/link, with the 4-character code to type there; waiting until the fake approves it), sees "Linked as", unlinks, lets a code expire and tries again, and is offered
// "Link again" after Plex signed Hearth out; on a laptop an admin connects the household's server by
// signing in with Plex and picking the server's address, disconnects, and connects by typing the
// address and token (a wrong token said in a sentence). axe on each screen; no Plex token in any
// answer the browser received. Needs the built web app (`npm run build:web`).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, toastSays } from '../harness/browser.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('linking Plex in the browser', () => {
  let fake: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  const scan = createTokenScan();

  const pages = createPageOpener(() => ({ browser, server }), (page, as) => scan.watchPage(page, as));
  const { open, pageErrors } = pages;

  const lastPinId = () => {
    const pins = fake.state().pins;
    expect(pins.length).toBeGreaterThan(0);
    return pins.at(-1)!.id;
  };

  beforeAll(async () => {
    requireBuiltWebApp();
    fake = await startFakeMediaServer();
    server = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { tuning: { mediaHealthTtlMs: 0, mediaProbeMs: 1_000 } },
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

  it('on a phone a member links their own account with the PIN, unlinks, retries an expired code, and links again after Plex signed them out', async () => {
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    const page = await open('member', PHONE);
    await page.goto(`${server.url}/media/link`);
    await shown(page.getByRole('heading', { name: 'Link my Plex account', level: 1 }));
    // rule 7: Media stays empty until the member links, and the page says so (not "watching works without it")
    await shown(page.getByText('Media shows the household’s films and shows once you link your own Plex account; until then it stays empty for you.', { exact: false }));
    await shown(page.getByText('Media shows the household’s films and shows once you link your own Plex account: until then it stays empty for you.'));
    expect(await page.getByText(/works without it|without a Plex account/).count()).toBe(0);
    await page.getByRole('button', { name: 'Link my Plex account' }).click();

    const code = page.getByTestId('pin-code');
    await shown(code);
    const codeText = (await code.textContent())!.trim();
    expect(codeText).toMatch(/^[A-Z0-9]{4}$/);
    const link = page.getByRole('link', { name: 'Open the Plex page' });
    expect(await link.getAttribute('href')).toContain(`${fake.url}/auth#?`);
    // on another device: the short page and the code, both typeable (not the long sign-in address)
    const other = page.getByTestId('pin-other-device');
    expect((await other.textContent())!.replace(/\s+/g, ' ').trim()).toBe(`On another phone or computer? Go to plex.tv/link there, sign in and type the code ${codeText}.`);
    expect(await page.getByTestId('pin-link-text').getAttribute('href')).toBe('https://plex.tv/link');
    expect(await other.textContent()).not.toContain('#?');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shown(page.getByRole('progressbar', { name: 'Time left for this code' }));
    await expectNoSeriousA11yViolations(page, 'link my Plex account (waiting)');
    await page.screenshot({ path: '/tmp/hearth-phone-media-link-pin.png' });

    fake.approvePin(lastPinId(), 'alice');
    await shown(page.getByTestId('linked-as'));
    expect(await page.getByTestId('linked-as').textContent()).toContain('alice');
    await shown(page.getByText('This account reaches the household’s media server.'));
    await expectNoSeriousA11yViolations(page, 'link my Plex account (linked)');

    // unlink, then a code that runs out: try again gets a new one
    await page.getByRole('button', { name: 'Unlink' }).click();
    await shown(page.getByRole('button', { name: 'Link my Plex account' }));
    await page.getByRole('button', { name: 'Link my Plex account' }).click();
    await shown(code);
    const first = lastPinId();
    fake.expirePin(first);
    await shown(page.getByTestId('pin-expired'));
    await page.getByRole('button', { name: 'Try again' }).click();
    await shown(code);
    expect(lastPinId()).not.toBe(first);
    fake.approvePin(lastPinId(), 'alice');
    await shown(page.getByTestId('linked-as'));

    // Plex signs Hearth out of alice's account: the page offers to link again
    fake.revoke(fake.tokens.alice);
    await page.reload();
    await shown(page.getByTestId('link-revoked'));
    await expectNoSeriousA11yViolations(page, 'link my Plex account (signed out)');
    await page.getByRole('button', { name: 'Link again' }).click();
    await shown(code);
    fake.approvePin(lastPinId(), 'bob');
    await shown(page.getByTestId('linked-as'));
    expect(await page.getByTestId('linked-as').textContent()).toContain('bob');
    expect(pageErrors).toEqual([]);
    await server.admin.post('/api/mediaserver/config', { mode: 'disconnect' });
  });

  it('after linking, the Media page the member came from shows their feeds at once, not the link card it showed a moment ago', async () => {
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    await server.member.delete('/api/mediaserver/me');
    const page = await open('member', PHONE);
    await page.goto(`${server.url}/media`);
    const card = page.getByTestId('media-link-card');
    await shown(card);
    await card.getByRole('link', { name: 'Link my Plex account' }).click();
    await page.getByRole('button', { name: 'Link my Plex account' }).click();
    await shown(page.getByTestId('pin-code'));
    fake.approvePin(lastPinId(), 'bob'); // alice's token was revoked by the test before
    await shown(page.getByTestId('linked-as'));
    // back in the app (no reload), within the status answer's freshness window: linking must have
    // refreshed the status the Media page reads, so the card is gone and the feeds show
    await page.goBack();
    await shown(page.getByRole('heading', { name: 'Continue watching' }));
    await gone(card);
    expect(pageErrors).toEqual([]);
    await server.admin.post('/api/mediaserver/config', { mode: 'disconnect' });
  });

  it('on a laptop an admin connects the household’s server by signing in with Plex and picking its address, then by typing it', async () => {
    const page = await open('admin', DESKTOP);
    await page.goto(`${server.url}/admin/media`);
    await shown(page.getByRole('heading', { name: 'Not connected' }));
    await page.getByRole('button', { name: 'Sign in with Plex' }).last().click();
    await shown(page.getByTestId('pin-code'));
    fake.approvePin(lastPinId(), 'admin');

    const choice = page.getByTestId('server-choice');
    await shown(choice);
    await shown(choice.getByText('Signed in as admin.', { exact: false }));
    const reachable = choice.getByRole('radio', { name: new RegExp(fake.url.replace(/[.]/g, '\\.')) });
    expect(await reachable.isChecked()).toBe(true);
    // the addresses that did not answer cannot be picked
    expect(await choice.getByRole('radio', { disabled: true }).count()).toBeGreaterThan(0);
    await expectNoSeriousA11yViolations(page, 'media server (pick a server)');
    await page.screenshot({ path: '/tmp/hearth-desktop-media-admin-pick.png' });
    await choice.getByRole('button', { name: 'Use this server' }).click();
    await toastSays(page, 'Connected to Living Room Plex.');
    await shown(page.getByRole('heading', { name: /Connected to Living Room Plex/ }));
    await shown(page.getByTestId('connection-state').getByText('Working'));
    await shown(page.getByText('By signing in with Plex as admin'));
    await expectNoSeriousA11yViolations(page, 'media server (connected)');

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await shown(page.getByRole('heading', { name: 'Not connected' }));

    await page.getByRole('button', { name: 'Type the address' }).click();
    await page.getByLabel('Server address').fill(fake.url);
    await page.getByLabel('Plex token').fill('not-the-right-token');
    await page.getByRole('button', { name: 'Check and save' }).click();
    await shown(page.getByText('The media server did not accept that token.', { exact: false }));
    await page.getByLabel('Plex token').fill(fake.tokens.admin);
    await page.getByRole('button', { name: 'Check and save' }).click();
    await shown(page.getByRole('heading', { name: /Connected to Living Room Plex/ }));
    await shown(page.getByText('By typing the address and token'));
    // the token typed in is gone from the form, and not on the page
    expect(await page.getByLabel('Plex token').inputValue()).toBe('');
    expect(await page.content()).not.toContain(fake.tokens.admin);
    expect(pageErrors).toEqual([]);
  });

  it('no Plex token reached the browser or a log line', async () => {
    // closing the pages ends any read still under way (its answer was a poll the test did not need)
    await pages.closeAll();
    await scan.settled();
    expect(scan.answers.some((a) => a.what.includes('/api/mediaserver/'))).toBe(true);
    scan.expectNoTokens(fake.allTokens());
  });
});
