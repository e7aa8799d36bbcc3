// Issue 32 in the browser: on a 390 px phone a parent (the admin) opens Members › Sam › Content and
// safety, sees the dials in plain words, cannot pick an area looser than the level, sets Sam to
// child and saves; the Archives admin marks the books archive for teens and adults. Sam's Media
// (the fake Plex: the PG-13 film and the TV-14 series go, and one sentence says titles are hidden)
// and Library (both archives, teen by default, go) change. Then Sam, set to adult with adult content
// on, sees an adult picture in Pictures; the parent sets Sam to child and it goes, with one sentence. At 1280 px the same page shows the saved level. axe finds nothing serious.
// Needs the built web app (`npm run build:web`) and Debian's kiwix-tools and zim-tools.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { expectNoSeriousA11yViolations } from '../harness/a11y.js';
import { fixtureCatalog, installFixtureArchives } from '../harness/archives.js';
import { createPageOpener, DESKTOP, launchChromium, PHONE, requireBuiltWebApp, shown, toastSays } from '../harness/browser.js';
import { freePort } from '../harness/net.js';
import { MEMBER, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { buildTestZims, kiwixServeOnPath, type TestZims } from '../harness/zims.js';
import { ImageGenStore } from '../../server/modules/image-gen/store.js';

const TITLES_HIDDEN = 'Some titles are hidden by your content settings.';
const PICTURES_HIDDEN = 'Some pictures are hidden by your content settings.';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

describe('content levels in the browser', () => {
  const temp = makeTempDir();
  let zims: TestZims;
  let fake: FakeMediaServer;
  let server: TestServer;
  let browser: Browser;
  const pages = createPageOpener(() => ({ browser, server }));

  beforeAll(async () => {
    requireBuiltWebApp();
    zims = buildTestZims();
    fake = await startFakeMediaServer();
    server = await startTestServer({
      seed: 'household',
      config: {
        archiveCatalogPath: fixtureCatalog(temp.dir, zims),
        archiveServerPort: await freePort(),
        kiwixServePath: kiwixServeOnPath(),
        fetchAllowOrigins: [fake.url],
        mediaAccountUrl: fake.accountUrl,
        mediaDiscoverUrl: fake.discoverUrl,
        mediaLinkPageUrl: `${fake.url}/auth`,
      },
    });
    await installFixtureArchives(server, zims, temp.dir);
    expect((await server.admin.post('/api/setup/welcome-complete', {})).status).toBeLessThan(300);
    expect((await server.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    const pin = await server.member.post('/api/mediaserver/auth/pin');
    fake.approvePin(pin.body.id, 'alice');
    expect((await server.member.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status).toBe(200);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await pages.closeAll({ quietly: true });
    await browser?.close();
    await server?.close();
    await fake?.close();
    zims?.remove();
    temp.remove();
  });

  it('on a phone a parent sets a member to child, and the member’s Media and Library follow', async () => {
    const sam = await pages.open('member', PHONE);
    // at teen (the default): the PG-13 film and both archives
    await sam.goto(`${server.url}/media`);
    await shown(sam.getByTestId('rail-ondeck').getByRole('link', { name: /The Night Harbor/ }));
    await shown(sam.getByTestId('rail-recent').getByRole('link', { name: /Glass Orchard/ }));
    expect(await sam.getByText(TITLES_HIDDEN).count()).toBe(0);
    await sam.goto(`${server.url}/library`);
    await shown(sam.getByText('Fixturepedia').first());
    await shown(sam.getByText('Fixture books').first());
    expect(await sam.getByText('Some archives are hidden by your content settings.').count()).toBe(0);

    const parent = await pages.open('admin', PHONE);
    await parent.goto(`${server.url}/members`);
    await parent.getByRole('link', { name: `Content and safety of ${server.users.member.name}` }).click();
    await shown(parent.getByRole('heading', { name: `${server.users.member.name}’s content and safety` }));
    const summary = parent.getByTestId('content-summary');
    await shown(summary.getByText('family-safe'));
    expect(await summary.textContent()).toContain('Media: up to PG-13 and TV-14');
    // tighter, never looser: at teen, "Adult" is not offered for an area
    const media = parent.getByLabel('Media', { exact: true });
    expect(await media.locator('option[value="adult"]').isDisabled()).toBe(true);
    await parent.getByRole('button', { name: 'Child', exact: true }).click();
    expect(await media.locator('option[value="teen"]').isDisabled()).toBe(true);
    await shown(summary.getByText('rated G, PG, TV-Y to TV-PG'));
    await expectNoSeriousA11yViolations(parent, '/members/:id/content (phone)');
    expect(await parent.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await parent.getByRole('button', { name: 'Save' }).click();
    await toastSays(parent, `Saved ${server.users.member.name}’s content settings.`);
    expect((await server.member.get('/api/content')).body).toMatchObject({ level: 'child', media: 'child', archives: 'child', images: 'child' });

    // the Archives admin page: each installed archive's level
    await parent.goto(`${server.url}/admin/archives`);
    const books = parent.getByTestId('archive-fixturebooks');
    const who = books.getByLabel('Who can see it');
    expect(await who.inputValue()).toBe('teen');
    await who.selectOption('adult');
    await expect.poll(async () => (await server.admin.get('/api/admin/archives/catalog')).body.sources.find((x: { id: string }) => x.id === 'fixturebooks').installed.level).toBe('adult');
    await expectNoSeriousA11yViolations(parent, '/admin/archives (phone)');

    // Sam, now a child: no PG-13 film, no TV-14 series, no teen archives
    await sam.goto(`${server.url}/media`);
    await shown(sam.getByTestId('rail-recent').getByRole('link', { name: /Paper Lanterns|Glass Orchard/ }).first());
    expect(await sam.getByRole('link', { name: /The Night Harbor|Harbor Lights/ }).count()).toBe(0);
    await shown(sam.getByText(TITLES_HIDDEN));
    await sam.goto(`${server.url}/library`);
    await shown(sam.getByText('The shelves are empty'));
    await shown(sam.getByText('Some archives are hidden by your content settings.'));
    expect(await sam.getByText('Fixturepedia').count()).toBe(0);
    await expectNoSeriousA11yViolations(sam, '/library (a child, phone)');
    expect(pages.pageErrors).toEqual([]);
  });

  /** One of Sam's finished pictures, as the image services write it (row and file). */
  async function picture(isAdult: boolean): Promise<void> {
    const userId = server.users.member.id;
    const id = randomUUID();
    mkdirSync(path.join(server.dataDir, 'images', userId), { recursive: true });
    writeFileSync(path.join(server.dataDir, 'images', userId, `${id}.png`), PNG);
    const at = new Date().toISOString();
    await new ImageGenStore(server.handle.deps.db).insertArtifact({
      id, userId, kind: 'generated', pipeline: 'txt2img', state: 'ready', stepCurrent: 25, stepTotal: 25, isAdult, prompt: isAdult ? 'a grown-up picture' : 'a red kite',
      finalPrompt: null, negativePrompt: null, style: null, params: {}, loras: [], sourceId: null, error: null, outputPath: `${userId}/${id}.png`,
      contentType: 'image/png', width: 1, height: 1, bytes: PNG.length, createdAt: at, startedAt: null, finishedAt: at,
    });
  }

  it('on a phone the parent’s change reaches Pictures too: an adult’s adult pictures go when they are set to child', async () => {
    // Sam at adult with adult content on in this session: both pictures show
    expect((await server.admin.put(`/api/admin/content/members/${server.users.member.id}`, { level: 'adult' })).status).toBe(200);
    await picture(false);
    await picture(true);
    expect((await server.member.post('/api/privacy/adult', { pin: MEMBER.pin })).status).toBe(200);
    const sam = await pages.open('member', PHONE);
    await sam.goto(`${server.url}/images/history`);
    const tiles = sam.getByTestId('history-grid').getByRole('listitem');
    await expect.poll(() => tiles.count()).toBe(2);
    expect(await sam.getByText(PICTURES_HIDDEN).count()).toBe(0);

    const parent = await pages.open('admin', PHONE);
    await parent.goto(`${server.url}/members/${server.users.member.id}/content`);
    await parent.getByRole('button', { name: 'Child', exact: true }).click();
    await parent.getByRole('button', { name: 'Save' }).click();
    await toastSays(parent, `Saved ${server.users.member.name}’s content settings.`);

    // a child: adult content is off, the adult picture is gone and one sentence says some are hidden
    await sam.reload();
    await shown(sam.getByText(PICTURES_HIDDEN));
    expect(await tiles.count()).toBe(1);
    await expectNoSeriousA11yViolations(sam, '/images/history (a child, phone)');
    expect(pages.pageErrors).toEqual([]);
  });

  it('on a laptop the page reads back the saved level; the admin’s own page only reads', async () => {
    const page = await pages.open('admin', DESKTOP);
    await page.goto(`${server.url}/members/${server.users.member.id}/content`);
    await shown(page.getByRole('button', { name: 'Child', exact: true, pressed: true }));
    await page.goto(`${server.url}/members/${server.users.admin.id}/content`);
    await shown(page.getByText('You cannot change your own content settings. Another admin can change them for you.'));
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await expectNoSeriousA11yViolations(page, '/members/:id/content (own, laptop)');
  });
});
