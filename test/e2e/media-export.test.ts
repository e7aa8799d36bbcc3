// Home videos and the admin's storage page in a real browser against the fake Plex (issue 19): a
// member without a library does not see My home videos in the navigation and, opening it anyway,
// is told an admin sets it up (an admin without one gets the link to Media storage); on a laptop an admin adds a storage location
// (a wrong mapping first, which the check names), fixes and checks it, provisions the member (and,
// after the server failed, themself with Try again), and is refused deleting the location in use;
// then on a phone the member uploads a small real video (WebM bytes made here) through the
// resumable upload, its connection dropped once (it asks where it stopped and carries on), sees it
// in their list (being added, then ready, its picture a landscape frame decoded from Hearth's
// picture proxy), changes a sync setting and deletes it with the confirm dialog; a 21 MB upload
// whose phone goes offline after its first 8 MB piece stops with a sentence and Resume, and resumed
// sends only the rest (its first PATCH at the server's offset). axe on each page;
// no Plex token in any answer the browser received. One server, one browser. Needs the built web
// app (`npm run build:web`).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { createPageOpener, DESKTOP, gone, launchChromium, PHONE, requireBuiltWebApp, shown, toastSays } from '../harness/browser.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { DISK_RESERVE_BYTES } from '../../server/platform/disk.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const SERVER_ROOT = '/srv/plex-media/hearth';

/** A few KB that start as a WebM file (EBML header naming the webm doctype). */
function webmBytes(size = 6_000): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i < b.length; i++) b[i] = (i * 13 + 5) & 0xff;
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]).copy(b, 0);
  b.write('webm', 12, 'latin1');
  return b;
}

describe('home videos and storage in the browser', () => {
  let fake: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  const temp = makeTempDir();
  const store = path.join(temp.dir, 'media');
  const scan = createTokenScan();
  /** The free space the server reads (a figure, so no test fills a real disk). */
  let freeBytes = 1024 ** 4;

  const pages = createPageOpener(() => ({ browser, server }), (page, as) => scan.watchPage(page, as));
  const { open, pageErrors } = pages;

  beforeAll(async () => {
    requireBuiltWebApp();
    mkdirSync(store, { recursive: true });
    fake = await startFakeMediaServer({ refreshMs: 20, mounts: { [SERVER_ROOT]: store } });
    server = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { diskFree: async () => freeBytes, tuning: { mediaHealthTtlMs: 0, mediaScanPollMs: 20 } },
    });
    scan.watch(server);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    // rule 3: Sam and Alex link their own Plex accounts before their libraries are made; Robin has not
    for (const [client, as] of [[server.member, 'alice'], [server.admin, 'admin']] as const) {
      const pin = await client.post('/api/mediaserver/auth/pin');
      expect(pin.status).toBe(201);
      fake.approvePin(pin.body.id, as);
      expect((await client.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status).toBe(200);
    }
    expect((await server.admin.post('/api/admin/users', { name: 'Robin', pin: '2468' })).status).toBe(201);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await fake?.close();
    temp.remove();
  });

  /** The navigation once it knows whether the caller has a home videos library (asked for when the browser is idle). */
  async function settledNav(page: Page, path: string) {
    const sections = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/mediaserver/me/library-sections');
    await page.goto(`${server.url}${path}`);
    await sections;
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Home', exact: true }).waitFor();
    return nav;
  }

  it('on a phone a member without a library does not see My home videos in the navigation, and opened directly the page says an admin sets it up', async () => {
    const page = await open('member', PHONE);
    const nav = await settledNav(page, '/');
    await nav.getByRole('button', { name: 'More' }).tap();
    await shown(nav.getByRole('link', { name: 'Media', exact: true }));
    expect(await nav.getByRole('link', { name: 'My home videos' }).count()).toBe(0);

    await page.goto(`${server.url}/media/videos`);
    await shown(page.getByRole('heading', { name: 'My home videos', level: 1 }));
    await shown(page.getByText('Not set up yet'));
    await shown(page.getByText('An admin sets up your home videos library on the Media storage page. Ask an admin to do it for you.', { exact: false }));
    expect(await page.getByTestId('home-video-file').count()).toBe(0);
    // a member cannot open the admin's page, so is not sent there
    expect(await page.getByRole('link', { name: 'Open Media storage' }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, 'my home videos (not set up)');
    await page.close();
  });

  it('on a laptop an admin without a library of their own does not see My home videos either, and the page links to Media storage', async () => {
    const page = await open('admin', DESKTOP);
    const nav = await settledNav(page, '/');
    await nav.getByRole('button', { name: 'More' }).click();
    await shown(nav.getByRole('link', { name: 'Media', exact: true }));
    expect(await nav.getByRole('link', { name: 'My home videos' }).count()).toBe(0);
    await page.goto(`${server.url}/media/videos`);
    await shown(page.getByText('Not set up yet'));
    await shown(page.getByText('You can do that now.', { exact: false }));
    await shown(page.getByRole('link', { name: 'Open Media storage' }));
    await expectNoSeriousA11yViolations(page, 'my home videos (admin, not set up)');
    await page.getByRole('link', { name: 'Open Media storage' }).click();
    await shown(page.getByRole('heading', { name: 'Media storage', level: 1 }));
    await page.close();
  });

  it('on a laptop an admin adds a storage location, checks its mapping, provisions a member, and cannot delete a location in use', async () => {
    const page = await open('admin', DESKTOP);
    await page.goto(`${server.url}/admin/media`);
    await page.getByRole('link', { name: 'media storage' }).click();
    await shown(page.getByRole('heading', { name: 'Media storage', level: 1 }));
    await shown(page.getByText('No storage locations yet'));
    const sam = page.getByTestId('provision-row').filter({ hasText: 'Sam' });
    await shown(sam.getByText('Add a storage location for', { exact: false }));
    expect(await sam.getByRole('button', { name: 'Provision Sam' }).isDisabled()).toBe(true);
    await expectNoSeriousA11yViolations(page, 'media storage (empty)');

    // a wrong mapping first: the check says the server does not see it
    await page.getByRole('button', { name: 'Add a location' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Media');
    await dialog.getByLabel('Folder on this computer').fill(store);
    await dialog.getByLabel('How the media server sees this folder').fill('/srv/elsewhere');
    await expectNoSeriousA11yViolations(page, 'media storage (add a location)');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await toastSays(page, 'Media was added.');
    const card = page.getByTestId('storage-location');
    await shown(card.getByText(store));
    await card.getByRole('button', { name: 'Check' }).click();
    await shown(card.getByTestId('check-result').getByText('The media server does not see a folder /srv/elsewhere.', { exact: false }));
    await shown(sam.getByText('Check the path mapping of “Media” first', { exact: false }));
    expect(await sam.getByRole('button', { name: 'Provision Sam' }).isDisabled()).toBe(true);

    await card.getByRole('button', { name: 'Edit' }).click();
    await dialog.getByLabel('How the media server sees this folder').fill(SERVER_ROOT);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toastSays(page, 'Media was saved.');
    await card.getByRole('button', { name: 'Check' }).click();
    await shown(card.getByTestId('check-result').getByText(`The media server sees this folder at ${SERVER_ROOT}.`));
    await shown(card.getByText('Seen by the media server'));

    // a member who has not linked a Plex account waits, with the reason beside the greyed-out button
    const robin = page.getByTestId('provision-row').filter({ hasText: 'Robin' });
    await shown(robin.getByText('Robin has not linked a Plex account yet', { exact: false }));
    expect(await robin.getByRole('button', { name: 'Provision Robin' }).isDisabled()).toBe(true);

    const provision = sam.getByRole('button', { name: 'Provision Sam' });
    await shown(provision);
    expect(await provision.isDisabled()).toBe(false);
    await provision.click();
    await shown(sam.getByText('Ready'));
    await expectNoSeriousA11yViolations(page, 'media storage (provisioned)');
    await page.screenshot({ path: '/tmp/hearth-desktop-media-storage.png' });

    // a library the server fails to make says why, and offers to try again
    await fake.setMode('garbage', { role: 'server' });
    const alex = page.getByTestId('provision-row').filter({ hasText: 'Alex' });
    await alex.getByRole('button', { name: 'Provision Alex' }).click();
    await shown(alex.getByText('Failed'));
    await shown(alex.getByText('The media server sent an answer Hearth could not read.'));
    await fake.setMode('ok', { role: 'server' });
    await page.reload();
    await alex.getByRole('button', { name: 'Try again for Alex' }).click();
    await shown(alex.getByText('Ready'));

    // in use: the delete is refused with the server's sentence, in the dialog
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await shown(confirm.getByText('2 members’ libraries use “Media”.', { exact: false }));
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await gone(confirm);
    expect(await card.count()).toBe(1);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('on a phone a member uploads a video, sees it added and ready, changes a sync setting and deletes it', async () => {
    const page = await open('member', PHONE);
    // with a library of their own, My home videos is listed under More
    const nav = await settledNav(page, '/');
    await nav.getByRole('button', { name: 'More' }).tap();
    await nav.getByRole('link', { name: 'My home videos', exact: true }).tap();
    await shown(page.getByRole('heading', { name: 'Add a video' }));
    // the types and the size cap are named before a file is picked
    await shown(page.getByText(/MP4, MOV, WebM, MKV, AVI or 3GP, up to 8 GB each/));
    await shown(page.getByText('No videos yet'));
    await expectNoSeriousA11yViolations(page, 'my home videos (empty)');

    // the connection drops on the first piece: the upload asks where it stopped (HEAD) and carries on
    const seen: string[] = [];
    let dropped = false;
    await page.route('**/api/mediaserver/me/uploads/**', async (route) => {
      seen.push(route.request().method());
      if (route.request().method() === 'PATCH' && !dropped) {
        dropped = true;
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });
    await page.getByTestId('home-video-file').setInputFiles({ name: 'beach-day.webm', mimeType: 'video/webm', buffer: webmBytes() });
    await page.getByRole('button', { name: 'Upload' }).click();
    await toastSays(page, 'beach-day.webm was added.');
    expect(dropped).toBe(true);
    expect(seen).toEqual(['PATCH', 'HEAD', 'PATCH']);
    await page.unroute('**/api/mediaserver/me/uploads/**');
    // the picker no longer names the file just sent
    await shown(page.getByText('No file chosen'));
    const row = page.getByTestId('home-video');
    await shown(row);
    expect(await row.count()).toBe(1);
    await shown(row.getByText('Ready'));
    // its picture, a frame of the video through Hearth's picture proxy, is in the page (not the placeholder), decoded, landscape
    const thumb = row.locator('img.home-videos__thumb');
    await shown(thumb);
    expect(await thumb.getAttribute('src')).toMatch(/^\/api\/mediaserver\/img\?path=%2Flibrary%2Fmetadata%2F\d+%2Fthumb/);
    await page.waitForFunction((el) => (el as HTMLImageElement).complete, await thumb.elementHandle());
    const size = await thumb.evaluate((img: HTMLImageElement) => ({ w: img.naturalWidth, h: img.naturalHeight }));
    expect(size.w).toBeGreaterThan(0);
    expect(size.w).toBeGreaterThan(size.h);
    await expectNoSeriousA11yViolations(page, 'my home videos (one video)');
    await page.screenshot({ path: '/tmp/hearth-phone-home-videos.png' });

    await page.getByRole('switch', { name: 'Remove videos after I watch them' }).click();
    await toastSays(page, 'Saved.');
    const mine = (await server.member.get('/api/mediaserver/me/library-sections')).body.sections.find((x: { contentType: string }) => x.contentType === 'mine');
    expect(mine.section.removeWatched).toBe(true);

    await row.getByRole('button', { name: /^Delete / }).click();
    const dialog = page.getByRole('alertdialog');
    await shown(dialog);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await gone(row);
    await shown(page.getByText('No videos yet'));
    // Hearth keeps the row as removed (the sweep's history), the page lists only what is there
    expect((await server.member.get('/api/mediaserver/me/videos')).body.videos.map((v: { state: string; removedReason: string }) => [v.state, v.removedReason])).toEqual([['removed', 'You deleted it.']]);
    expect(pageErrors).toEqual([]);
  });

  it('on a phone an upload whose connection is lost offers Resume in a sentence, and carries on from where it stopped', async () => {
    const page = await open('member', PHONE);
    await page.goto(`${server.url}/media/videos`);
    await shown(page.getByRole('heading', { name: 'Add a video' }));
    // three 8 MB pieces (the page's chunk size): the first arrives, then the phone goes offline
    const video = webmBytes(20 * 1024 * 1024);
    const patches: Array<{ offset: number; bytes: number; after: 'start' | 'resume'; sent: boolean }> = [];
    let phase: 'start' | 'resume' = 'start';
    await page.route('**/api/mediaserver/me/uploads/**', async (route) => {
      const req = route.request();
      if (req.method() !== 'PATCH') return route.continue();
      const entry = { offset: Number(req.headers()['upload-offset']), bytes: req.postDataBuffer()?.length ?? 0, after: phase, sent: true };
      patches.push(entry);
      if (phase === 'start' && entry.offset > 0) {
        // offline: tus-js-client stops trying (it retries only while the browser is online) and gives up
        entry.sent = false;
        await page.context().setOffline(true);
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });
    await page.getByTestId('home-video-file').setInputFiles({ name: 'long-walk.webm', mimeType: 'video/webm', buffer: video });
    await page.getByRole('button', { name: 'Upload' }).click();

    // a plain sentence, how far it got, and Resume (no Upload while it waits)
    await shown(page.getByText('The connection to Hearth dropped. Your upload is kept; resume it when you are back online.'));
    const resume = page.getByRole('button', { name: 'Resume' });
    await shown(resume);
    expect(await page.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    await shown(page.getByText('40% · 8.39 MB of 21.0 MB'));
    await expectNoSeriousA11yViolations(page, 'my home videos (upload waiting to resume)');
    await page.screenshot({ path: '/tmp/hearth-phone-home-videos-resume.png' });

    await page.context().setOffline(false);
    phase = 'resume';
    await resume.click();
    await toastSays(page, 'long-walk.webm was added.');
    await page.unroute('**/api/mediaserver/me/uploads/**');

    // it carried on from the server's offset: the first piece was not sent again
    const resumed = patches.filter((p) => p.after === 'resume');
    expect(resumed[0]?.offset).toBe(8 * 1024 * 1024);
    const sentAgain = resumed.reduce((n, p) => n + p.bytes, 0);
    expect(sentAgain).toBe(video.length - 8 * 1024 * 1024);
    expect(sentAgain).toBeLessThan(video.length);
    const row = page.getByTestId('home-video').filter({ hasText: 'long-walk' });
    await shown(row);
    await shown(row.getByText('21.0 MB'));
    await shown(row.getByText('Ready'));
    const stored = (await server.member.get('/api/mediaserver/me/videos')).body.videos.find((v: { title: string }) => v.title === 'long-walk');
    expect(stored).toMatchObject({ bytes: video.length, state: 'ready' });
    expect(pageErrors).toEqual([]);
  });

  it('an admin sets the household’s upload limits (laptop and phone); a member past them, or whose upload the disk cannot hold, is told why once, without retries', async () => {
    const admin = await open('admin', DESKTOP);
    await admin.goto(`${server.url}/admin/media-storage`);
    const card = admin.getByTestId('upload-limits');
    await shown(card);
    const count = card.getByLabel('Unfinished uploads per member');
    const space = card.getByLabel('Space one member’s unfinished uploads may take (GB)');
    expect(await count.inputValue()).toBe('10');
    expect(await space.inputValue()).toBe('50');
    await count.fill('0');
    await shown(card.getByText('Give a whole number from 1 to 1000.'));
    expect(await card.getByRole('button', { name: 'Save the limits' }).isDisabled()).toBe(true);
    await count.fill('1');
    await space.fill('2.5');
    await card.getByRole('button', { name: 'Save the limits' }).click();
    await toastSays(admin, 'The upload limits were saved.');
    expect((await server.admin.get('/api/mediaserver/admin/upload-limits')).body).toEqual({ maxOpenUploads: 1, maxOpenBytes: Math.round(2.5 * 1024 ** 3) });
    await expectNoSeriousA11yViolations(admin, 'media storage (upload limits)');
    await admin.screenshot({ path: '/tmp/hearth-desktop-upload-limits.png', fullPage: true });
    const adminPhone = await open('admin', PHONE);
    await adminPhone.goto(`${server.url}/admin/media-storage`);
    await shown(adminPhone.getByTestId('upload-limits'));
    expect(await adminPhone.getByTestId('upload-limits').getByLabel('Unfinished uploads per member').inputValue()).toBe('1');
    expect(await adminPhone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousA11yViolations(adminPhone, 'media storage (upload limits, phone)');

    // the member already has an unfinished upload (another device): the page says why the next is refused, asking once
    const other = await server.member.req('POST', '/api/mediaserver/me/uploads', undefined, {
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '5000', 'upload-metadata': `filename ${Buffer.from('phone.webm').toString('base64')},filetype ${Buffer.from('video/webm').toString('base64')}` },
    });
    expect(other.status).toBe(201);
    const page = await open('member', PHONE);
    await page.goto(`${server.url}/media/videos`);
    await shown(page.getByRole('heading', { name: 'Add a video' }));
    const posts: number[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/mediaserver/me/uploads') posts.push(r.status());
    });
    await page.getByTestId('home-video-file').setInputFiles({ name: 'picnic.webm', mimeType: 'video/webm', buffer: webmBytes() });
    await page.getByRole('button', { name: 'Upload' }).click();
    await shown(page.getByText('You already have an upload that is not finished, the most a member may have at once.', { exact: false }));
    expect(posts).toEqual([429]);
    expect((await server.member.req('DELETE', String(other.headers.location), undefined, { headers: { 'tus-resumable': '1.0.0' } })).status).toBe(204);

    // a disk that cannot hold it beside the reserve: 507, said in a sentence, not tried again
    freeBytes = DISK_RESERVE_BYTES + 1000;
    await page.reload();
    await shown(page.getByRole('heading', { name: 'Add a video' }));
    posts.length = 0;
    await page.getByTestId('home-video-file').setInputFiles({ name: 'picnic.webm', mimeType: 'video/webm', buffer: webmBytes() });
    await page.getByRole('button', { name: 'Upload' }).click();
    await shown(page.getByText('This video needs 6 KB but only 1 KB is free on the data disk. Free some space and try again.'));
    expect(posts).toEqual([507]);
    await expectNoSeriousA11yViolations(page, 'my home videos (disk full)');
    freeBytes = 1024 ** 4;
    expect((await server.admin.put('/api/mediaserver/admin/upload-limits', { maxOpenUploads: 10, maxOpenBytes: 50 * 1024 ** 3 })).status).toBe(200);
    expect(pageErrors).toEqual([]);
  });

  it('no Plex token reached the browser or a log line', async () => {
    await pages.closeAll();
    await scan.settled();
    expect(scan.answers.some((a) => a.what.includes('/api/mediaserver/'))).toBe(true);
    scan.expectNoTokens(fake.allTokens());
  });
});
