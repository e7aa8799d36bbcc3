// Members' private libraries stay private (issue 19): a member's home-video section on the
// household's Plex is read with the shared token like every other section, so Hearth itself hides
// it. Member Sam's section is provisioned on the fake and a video scanned into it; another member
// (Robin) and the admin never see it in any feed (recent, hubs, ondeck, sessions, find), and its
// title, picture and film are 404s for them even after Sam filled the proxies' caches; Sam sees,
// streams and plays it. Last: no Plex token in any answer or log line.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PART_BYTES, startFakeMediaServer, TOKENS, type FakeMediaServer, type FakeUserName } from '../fakes/media-server.js';
import { TestClient } from '../harness/client.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { mintSession, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';
import { MediaExportStore } from '../../server/modules/media-server/export-store.js';

const API = '/api/mediaserver';
const SERVER_ROOT = '/srv/plex-media/hearth';
const TITLE = 'Birthday at the lake';

/** Every ratingKey a feed answer lists. */
function keysOf(body: any): string[] {
  const items = [...(body.items ?? []), ...(body.hubs ?? []).flatMap((h: any) => h.items), ...(body.sessions ?? []).map((x: any) => x.item), ...(body.item ? [body.item] : [])];
  return items.map((i: any) => String(i.ratingKey));
}

describe('media: a member’s private library is theirs alone', () => {
  let fake: FakeMediaServer;
  let s: TestServer;
  let robin: TestClient;
  let key = '';
  let thumbUrl = '';
  /** Sam's private section (Hearth's row) and its folder. */
  let samSection: Awaited<ReturnType<TestServer['handle']['deps']['mediaExport']['readySection']>>['section'];
  let samDir = '';
  const scan = createTokenScan();
  const temp = makeTempDir();
  const store = path.join(temp.dir, 'media');

  const link = async (client: TestClient, as: FakeUserName) => {
    const pin = await client.post(`${API}/auth/pin`);
    expect(pin.status).toBe(201);
    fake.approvePin(pin.body.id, as);
    expect((await client.post(`${API}/me/link`, { pinId: pin.body.id })).status).toBe(200);
  };
  /** A HEAD's status (the test client parses a JSON body, which a HEAD has none of). */
  const head = async (c: TestClient, p: string) => {
    const res = await request(`${s.url}${p}`, { method: 'HEAD', headers: { cookie: c.cookie! } });
    await res.body.dump();
    scan.record(`HEAD ${p}`, { status: res.statusCode, headers: res.headers });
    return res.statusCode;
  };
  const feeds = (c: TestClient) => Promise.all(['/recent', '/hubs', '/ondeck', '/sessions', `/find?type=movie&title=${encodeURIComponent(TITLE)}`].map(async (p) => ({ p, r: await c.get(`${API}${p}`) })));

  beforeAll(async () => {
    mkdirSync(store, { recursive: true });
    fake = await startFakeMediaServer({ refreshMs: 20, mounts: { [SERVER_ROOT]: store } });
    s = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { tuning: { mediaScanPollMs: 20 } },
    });
    scan.watch(s);
    const made = await s.admin.post('/api/admin/users', { name: 'Robin', pin: '2468' });
    expect(made.status).toBe(201);
    robin = scan.watchClient(new TestClient(s.url, await mintSession(s.handle, made.body.user.id as string)), 'robin');

    expect((await s.admin.post(`${API}/config`, { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
    await link(s.admin, 'admin');
    await link(s.member, 'alice');
    await link(robin, 'bob');

    // Sam's home-video library: a storage location, its mapping checked, provisioned and scanned
    const loc = (await s.admin.post('/api/admin/storage-locations', { name: 'Media', localPath: store, contentTypes: ['mine'], serverPath: SERVER_ROOT })).body.location;
    expect((await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`)).body.ok).toBe(true);
    expect((await s.admin.post(`${API}/admin/provision`, { userId: s.users.member.id, contentType: 'mine' })).status).toBe(202);
    await s.handle.deps.mediaExport.idle();
    const { section, dir } = await s.handle.deps.mediaExport.readySection(s.users.member.id, 'mine');
    samSection = section;
    samDir = dir;
    writeFileSync(path.join(dir, `${TITLE}.mp4`), PART_BYTES);
    await s.handle.deps.homeVideos.rescan(section);
    for (let i = 0; i < 100 && !key; i++) {
      const hit = fake.state().sections.find((x) => x.key === section.sectionKey);
      const found = (await s.member.get(`${API}/find?type=movie&title=${encodeURIComponent(TITLE)}`)).body;
      if (found.found && !hit?.refreshing) key = String(found.item.ratingKey);
      else await new Promise((r) => setTimeout(r, 20));
    }
    expect(key).not.toBe('');

    // Sam is playing it (a session in the house); Robin's Plex app once played part of it (their on-deck)
    expect((await s.member.post(`${API}/meta/${key}/progress`, { positionMs: 5_000, durationMs: 60_000, state: 'playing' })).status).toBe(200);
    const bob = await request(`${fake.url}/:/progress?key=${key}&identifier=com.plexapp.plugins.library&time=5000`, { headers: { 'x-plex-token': TOKENS.bobServer, accept: 'application/json' } });
    await bob.body.text();
    expect(bob.statusCode).toBe(200);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
    temp.remove();
  });

  it('the owner sees their video in every feed and its title', async () => {
    for (const { p, r } of await feeds(s.member)) {
      expect(r.status, p).toBe(200);
      if (p !== '/ondeck') expect(keysOf(r.body), p).toContain(key);
    }
    const meta = await s.member.get(`${API}/meta/${key}`);
    expect(meta.status).toBe(200);
    expect(meta.body.item.title).toBe(TITLE);
    expect(meta.body.item.playable).toBe(true);
    thumbUrl = meta.body.item.thumbUrl;
    expect(thumbUrl).toMatch(new RegExp(`^/api/mediaserver/img\\?path=%2Flibrary%2Fmetadata%2F${key}%2Fthumb`));
  });

  it('the owner pulls its picture and streams it (filling the proxies’ caches first)', async () => {
    const img = await s.member.get(thumbUrl);
    expect(img.status).toBe(200);
    expect(String(img.headers['content-type'])).toMatch(/^image\//);
    const part = await s.member.get(`${API}/stream/${key}`, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-99\//);
    expect(await head(s.member, `${API}/stream/${key}`)).toBe(200);
  });

  it('another member and the admin never see it in any feed, though the rest of the library is there', async () => {
    for (const c of [robin, s.admin]) {
      const answers = await feeds(c);
      for (const { p, r } of answers) {
        expect(r.status, p).toBe(200);
        expect(keysOf(r.body), p).not.toContain(key);
        expect(r.text, p).not.toContain(TITLE);
        // nor is it counted among the titles the content dials hid: they are not told it exists
        if (r.body.hiddenByContent !== undefined) expect(r.body.hiddenByContent, p).toBe(0);
      }
      const recent = answers.find((a) => a.p === '/recent')!.r;
      expect(recent.body.items.length).toBeGreaterThan(0);
      const find = answers.find((a) => a.p.startsWith('/find'))!.r;
      expect(find.body).toEqual({ found: false, item: null, hiddenByContent: 0 });
    }
    // without the filter each of these would list it: the shared token sees it, Robin's on-deck holds it
    expect(fake.state().sessions.some((x) => x.ratingKey === key)).toBe(true);
  });

  it('its title, picture and film are 404s for them, and so are watchlist and watched actions', async () => {
    for (const c of [robin, s.admin]) {
      for (const r of [
        await c.get(`${API}/meta/${key}`),
        await c.get(thumbUrl),
        await c.get(`${API}/stream/${key}`, { headers: { range: 'bytes=0-99' } }),
        await c.post(`${API}/watchlist`, { ratingKey: key }),
        await c.post(`${API}/meta/${key}/watched`, { watched: true }),
        await c.post(`${API}/meta/${key}/progress`, { positionMs: 1_000, state: 'paused' }),
      ]) {
        expect(r.status).toBe(404);
        expect(r.body.error.code).toBe('not_found');
        expect(r.text).not.toContain(TITLE);
      }
      expect(await head(c, `${API}/stream/${key}`)).toBe(404);
    }
    // the seeded library still plays for them
    expect((await robin.get(`${API}/meta/101`)).status).toBe(200);
  });

  it('a poster of a feed is checked without asking the server again (the feed remembered its section)', async () => {
    const recent = await robin.get(`${API}/recent`);
    const first = recent.body.items.find((i: any) => i.thumbUrl);
    const seq = fake.log.length;
    const img = await robin.get(`${first.thumbUrl.replace(/w=\d+/, 'w=123')}`);
    expect(img.status).toBe(200);
    const asked = fake.log.slice(seq).map((l) => l.path);
    expect(asked.some((p) => p.startsWith('/photo/'))).toBe(true);
    expect(asked.filter((p) => /^\/library\/metadata\/[\d,]+$/.test(p))).toEqual([]);
  });

  it('the owner still sees and plays it afterwards', async () => {
    expect((await s.member.get(`${API}/meta/${key}`)).status).toBe(200);
    expect((await s.member.get(thumbUrl)).status).toBe(200);
    expect((await s.member.get(`${API}/stream/${key}`, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
  });

  it('a feed still fills its page when the newest items are another member’s private videos (filtered before the limit)', async () => {
    // five more of Sam's videos: with the first, the six newest films on the server are Sam's
    for (let n = 1; n <= 5; n++) writeFileSync(path.join(samDir, `Lake day ${n}.mp4`), PART_BYTES);
    await s.handle.deps.homeVideos.rescan(samSection);
    const privateKeys = () => fake.state().items.filter((i) => i.sectionId === samSection.sectionKey).map((i) => i.ratingKey);
    for (let i = 0; i < 200 && (privateKeys().length < 6 || fake.state().sections.find((x) => x.key === samSection.sectionKey)?.refreshing); i++) await new Promise((r) => setTimeout(r, 20));
    expect(privateKeys()).toHaveLength(6);

    const everything = (await robin.get(`${API}/recent?limit=50`)).body.items.map((i: any) => String(i.ratingKey));
    expect(everything.length).toBeGreaterThan(5);
    const seq = fake.log.length;
    const page = await robin.get(`${API}/recent?limit=5`);
    expect(page.status).toBe(200);
    // the five newest Robin may see, not what was left of the server's five newest
    expect(keysOf(page.body)).toEqual(everything.slice(0, 5));
    expect(keysOf(page.body).filter((k) => privateKeys().includes(k))).toEqual([]);
    // bounded: a few pages per list, never a walk of the whole library
    const asked = fake.log.slice(seq).filter((l) => l.path === '/hubs/home/recentlyAdded');
    expect(asked.length).toBeGreaterThan(2);
    expect(asked.length).toBeLessThanOrEqual(8);

    // the films hub too: three places asked, three films Robin may see
    const hubs = await robin.get(`${API}/hubs?limit=3`);
    expect(hubs.status).toBe(200);
    const films = hubs.body.hubs.find((h: any) => h.id === 'home.movies.recent');
    expect(films?.items).toHaveLength(3);
    expect(films.items.map((i: any) => String(i.ratingKey)).filter((k: string) => privateKeys().includes(k))).toEqual([]);
    // Sam's own page is Sam's newest, private ones included
    expect(keysOf((await s.member.get(`${API}/recent?limit=5`)).body).filter((k) => privateKeys().includes(k))).toHaveLength(5);
  });

  it('a show in another member’s private section: the show, its seasons and its episodes are hidden by their own keys too', async () => {
    // Kim's private library holds a show (a show-type personal section, reference §6.11), and the
    // server names the section once on a title's answer, not on each item (reference §6.4)
    fake.settings.itemSectionIds = false;
    const madeKim = await s.admin.post('/api/admin/users', { name: 'Kim', pin: '1357' });
    expect(madeKim.status).toBe(201);
    const kimId = madeKim.body.user.id as string;
    const kim = scan.watchClient(new TestClient(s.url, await mintSession(s.handle, kimId)), 'kim');
    const kimDir = path.join(temp.dir, 'kim');
    mkdirSync(path.join(kimDir, 'Camping trips', 'Season 1'), { recursive: true });
    for (const ep of ['s01e01', 's01e02']) writeFileSync(path.join(kimDir, 'Camping trips', 'Season 1', `Camping trips ${ep}.mp4`), PART_BYTES);
    fake.mount('/srv/plex-media/kim', kimDir);
    const plex = async (p: string, method: 'GET' | 'POST' = 'GET') => {
      const res = await request(`${fake.url}${p}`, { method, headers: { 'x-plex-token': TOKENS.admin, accept: 'application/json' } });
      const text = await res.body.text();
      expect(res.statusCode, p).toBe(200);
      return text ? JSON.parse(text) : null;
    };
    const made = await plex(`/library/sections?name=Kim&type=show&agent=com.plexapp.agents.none&scanner=${encodeURIComponent('Plex Series Scanner')}&language=xn&location=/srv/plex-media/kim`, 'POST');
    const sectionKey = String(made.MediaContainer.Directory[0].key);
    await plex(`/library/sections/${sectionKey}/refresh`);
    const kimItems = () => fake.state().items.filter((i) => i.sectionId === sectionKey);
    for (let i = 0; i < 200 && (kimItems().length < 4 || fake.state().sections.find((x) => x.key === sectionKey)?.refreshing); i++) await new Promise((r) => setTimeout(r, 20));
    const show = kimItems().find((i) => i.type === 'show')!.ratingKey;
    const season = kimItems().find((i) => i.type === 'season')!.ratingKey;
    const [ep1, ep2] = kimItems().filter((i) => i.type === 'episode').map((i) => i.ratingKey);
    const now = new Date().toISOString();
    await new MediaExportStore(s.handle.deps.db).insertSection({ ...samSection, id: `kim-${sectionKey}`, userId: kimId, locationId: null, folder: 'mine/kim', status: 'ready', error: null, sectionKey, createdAt: now, updatedAt: now, lastSweptAt: null });
    // the owner's Plex account plays one of Kim's episodes on the TV
    const play = await request(`${fake.url}/:/timeline?ratingKey=${ep2}&key=/library/metadata/${ep2}&identifier=com.plexapp.plugins.library&state=playing&time=1000&duration=60000`, { headers: { 'x-plex-token': TOKENS.admin, 'x-plex-client-identifier': 'tv-living-room', accept: 'application/json' } });
    await play.body.text();
    expect(fake.state().sessions.some((x) => x.ratingKey === ep2)).toBe(true);

    const img = (rk: string) => `${API}/img?path=${encodeURIComponent(`/library/metadata/${rk}/thumb/1`)}&w=120&h=180`;
    for (const c of [robin, s.admin, s.member]) {
      // pictures and films first: nothing has told Hearth yet which section these keys are in
      for (const r of [await c.get(img(ep1!)), await c.get(img(season)), await c.get(img(show)), await c.get(`${API}/stream/${ep1}`, { headers: { range: 'bytes=0-9' } })]) {
        expect(r.status).toBe(404);
        expect(r.text).not.toMatch(/Camping|Episode/);
      }
      for (const rk of [ep1!, season, show]) {
        const r = await c.get(`${API}/meta/${rk}`);
        expect(r.status, rk).toBe(404);
        expect(r.text).not.toContain('Camping');
        expect((await c.post(`${API}/meta/${rk}/watched`, { watched: true })).status).not.toBe(200);
      }
      for (const p of ['/recent?limit=50', '/hubs?limit=50', '/sessions', `/find?type=show&title=${encodeURIComponent('Camping trips')}`]) {
        const r = await c.get(`${API}${p}`);
        expect(r.status, p).toBe(200);
        expect(r.text, p).not.toContain('Camping');
        expect(keysOf(r.body), p).not.toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^(${[show, season, ep1, ep2].join('|')})$`))]));
      }
    }
    // Kim sees her own show, its seasons and episodes
    const mine = await kim.get(`${API}/meta/${show}`);
    expect(mine.status).toBe(200);
    expect(mine.body.children.map((k: any) => String(k.ratingKey))).toEqual([season]);
    expect((await kim.get(`${API}/meta/${ep1}`)).status).toBe(200);
    expect((await kim.get(img(ep1!))).status).toBe(200);
    fake.settings.itemSectionIds = true;
  });

  it('no Plex token reached a response or a log line', () => scan.expectNoTokens(fake.allTokens()));
});
