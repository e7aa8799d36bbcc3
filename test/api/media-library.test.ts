// The media library over HTTP against the fake Plex (issue 19): the feeds, a title, find, the
// watchlist and watched state through the real connection (an admin connects the server, each
// member links their own Plex account with the PIN flow). Who may ask (401), bad input (400), rule
// 7 (not connected, not linked: empty, no error), each member's own state and nobody else's, the
// watchlist and watched state with the member's own token (the fake's log says which), a revoked
// link and a down server in sentences, and no Plex token in any answer or log line (last).
// The service's finer rules (grouping, rule 4's forms, the 30-day cache) are in
// media-library-service.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMediaServer, type FakeMediaServer, type FakeUserName } from '../fakes/media-server.js';
import type { TestClient } from '../harness/client.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const API = '/api/mediaserver';
const FEEDS = ['/recent', '/ondeck', '/hubs', '/sessions', '/find?type=movie&title=Northbound'];

describe('media library (/api/mediaserver)', () => {
  let fake: FakeMediaServer;
  let s: TestServer;
  const scan = createTokenScan();

  beforeAll(async () => {
    fake = await startFakeMediaServer();
    s = await startTestServer({
      seed: 'household',
      config: { fetchAllowOrigins: [fake.url], mediaAccountUrl: fake.accountUrl, mediaDiscoverUrl: fake.discoverUrl, mediaLinkPageUrl: `${fake.url}/auth` },
      overrides: { tuning: { mediaHealthTtlMs: 0, mediaProbeMs: 1_000 } },
    });
    scan.watch(s);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    fake.reset();
    await fake.setMode('ok');
  });

  const connect = async () => expect((await s.admin.post(`${API}/config`, { mode: 'manual', serverUrl: fake.url, token: fake.tokens.admin })).status).toBe(200);
  const disconnect = async () => expect((await s.admin.post(`${API}/config`, { mode: 'disconnect' })).status).toBe(200);
  const link = async (client: TestClient, as: FakeUserName) => {
    const pin = await client.post(`${API}/auth/pin`);
    expect(pin.status).toBe(201);
    fake.approvePin(pin.body.id, as);
    const linked = await client.post(`${API}/me/link`, { pinId: pin.body.id });
    expect(linked.status).toBe(200);
  };
  const unlink = async (client: TestClient) => expect((await client.req('DELETE', `${API}/me`)).status).toBeLessThan(300);

  it('answers 401 to every library route without a session, and 400 with its field to bad input', async () => {
    for (const path of [...FEEDS, '/meta/101']) expect((await s.anon.get(`${API}${path}`)).status).toBe(401);
    for (const path of ['/meta/101/watched', '/meta/101/progress', '/watchlist']) expect((await s.anon.post(`${API}${path}`, {})).status).toBe(401);
    const bad = [
      await s.member.get(`${API}/meta/abc`),
      await s.member.get(`${API}/recent?limit=0`),
      await s.member.get(`${API}/find?type=movie`),
      await s.member.post(`${API}/meta/101/watched`, { watched: 'yes' }),
      await s.member.post(`${API}/meta/101/progress`, { positionMs: -1 }),
      await s.member.post(`${API}/watchlist`, { ratingKey: '../1' }),
    ];
    for (const r of bad) {
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
    expect(fake.log).toEqual([]);
  });

  it('rule 7: not connected, or connected but not linked: every feed is empty and nothing is an error', async () => {
    for (const path of FEEDS) {
      const r = await s.member.get(`${API}${path}`);
      expect(r.status, path).toBe(200);
      expect(Object.values(r.body as object).flat().filter((v) => v)).toEqual([]);
    }
    await connect();
    for (const path of FEEDS) {
      const r = await s.member.get(`${API}${path}`);
      expect(r.status, path).toBe(200);
      expect(JSON.stringify(r.body)).toMatch(/^\{"(items|hubs|sessions|found)":(\[\]|false)/);
    }
    // acting on one's own state needs a link, said in a sentence
    const watched = await s.member.post(`${API}/meta/101/watched`, { watched: true });
    expect(watched.status).toBe(409);
    expect(watched.body.error).toEqual({ code: 'media_link_needed', message: expect.stringMatching(/Link your own Plex account/) });
    expect((await s.member.post(`${API}/watchlist`, { ratingKey: '101' })).body.error.code).toBe('media_link_needed');
    await disconnect();
    const meta = await s.member.get(`${API}/meta/101`);
    expect(meta.status).toBe(404);
    expect(meta.body.error.message).toMatch(/not connected yet/);
  });

  describe('connected, both linked (the admin as the server’s owner, Sam as the friend alice)', () => {
    beforeAll(async () => {
      await connect();
      await link(s.admin, 'admin');
      await link(s.member, 'alice');
    });

    it('feeds answer with each member’s own state, never another’s', async () => {
      // six films and three seasons with new episodes; the limit is kept
      expect((await s.member.get(`${API}/recent?limit=3`)).body.items).toHaveLength(3);
      const recent = await s.member.get(`${API}/recent`);
      expect(recent.status).toBe(200);
      expect(recent.body.items).toHaveLength(9);
      expect(recent.body.items.find((i: { ratingKey: string }) => i.ratingKey === '101')).toMatchObject({ viewOffsetMs: 2_400_000 });
      const ondeck = await s.member.get(`${API}/ondeck`);
      // hers: the film she paused and the episode after the one she watched
      expect(ondeck.body.items.map((i: { ratingKey: string }) => i.ratingKey)).toEqual(['101', '20112']);
      const adminDeck = await s.admin.get(`${API}/ondeck`);
      expect(adminDeck.body.items.map((i: { ratingKey: string }) => i.ratingKey)).toEqual(expect.arrayContaining(['102', '20113']));
      expect(adminDeck.body.items.map((i: { ratingKey: string }) => i.ratingKey)).not.toContain('101');
      const hubs = await s.member.get(`${API}/hubs`);
      expect(hubs.body.hubs.map((h: { id: string }) => h.id)).toEqual(['home.movies.recent', 'home.television.recent']);
      const sessions = await s.member.get(`${API}/sessions`);
      expect(sessions.body.sessions.map((x: { user: string }) => x.user).sort()).toEqual(['admin', 'alice']);
      const find = await s.member.get(`${API}/find?type=show&source=tvdb&id=300201`);
      expect(find.body).toMatchObject({ found: true, item: { ratingKey: '201', route: { key: 'show:tvdb:300201' } } });
      const movie = await s.member.get(`${API}/find?type=movie&title=Northbound&year=1987`);
      expect(movie.body.item).toMatchObject({ ratingKey: '105' });
    });

    it('a title: item, children and whether it is on the member’s own watchlist', async () => {
      const show = await s.member.get(`${API}/meta/201`);
      expect(show.status).toBe(200);
      expect(show.body).toMatchObject({ item: { kind: 'show', title: 'Harbor Lights', route: { watchlistable: true } }, onWatchlist: true });
      expect(show.body.children.map((c: { ratingKey: string }) => c.ratingKey)).toEqual(['2011', '2012']);
      expect((await s.admin.get(`${API}/meta/201`)).body.onWatchlist).toBe(false);
      const missing = await s.member.get(`${API}/meta/999999`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toMatch(/not in the household’s library/);
    });

    it('the watchlist goes through discover with the member’s own account token, never the shared one', async () => {
      const add = await s.member.post(`${API}/watchlist`, { ratingKey: '103' });
      expect(add.status).toBe(200);
      expect(add.body).toEqual({ onWatchlist: true });
      expect(fake.state().watchlists.alice).toContain('Glass Orchard');
      expect(fake.state().watchlists.admin).not.toContain('Glass Orchard');
      const puts = fake.log.filter((r) => r.path.endsWith('/actions/addToWatchlist'));
      expect(puts.map((r) => [r.token, r.tokenVia])).toEqual([[fake.tokens.alice, 'header']]);
      expect((await s.member.post(`${API}/watchlist`, { discoverKey: '5f1a2b3c4d5e6f7081920302' })).body).toEqual({ onWatchlist: true });
      expect(fake.state().watchlists.alice).toContain('Copper Valley');
      const none = await s.member.post(`${API}/watchlist`, { ratingKey: '106' });
      expect(none.status).toBe(422);
      expect(none.body.error.message).toMatch(/Plex does not know this title/);
    });

    it('watched both ways, and one member’s progress never shows for the other', async () => {
      // app to server, with Sam's own token
      const marked = await s.member.post(`${API}/meta/104/watched`, { watched: true });
      expect(marked.status).toBe(200);
      expect(marked.body).toEqual({ watched: true, viewOffsetMs: null, synced: true });
      expect(fake.state().views.alice!['104']).toMatchObject({ viewCount: 1 });
      expect(fake.state().views.admin!['104']).toBeUndefined();
      expect(fake.log.filter((r) => r.path === '/:/scrobble').map((r) => r.user)).toEqual(['alice']);
      const progress = await s.member.post(`${API}/meta/105/progress`, { positionMs: 90_000 });
      expect(progress.body).toEqual({ watched: false, viewOffsetMs: 90_000, synced: true });
      expect((await s.member.get(`${API}/meta/105`)).body.item).toMatchObject({ viewOffsetMs: 90_000 });
      expect((await s.admin.get(`${API}/meta/105`)).body.item).toMatchObject({ viewOffsetMs: null, watched: false });
      expect((await s.admin.get(`${API}/meta/104`)).body.item.watched).toBe(false);
      // server to app: the admin finishes Glass Orchard's sequel on the TV; Hearth reads it back
      await fake.setMode('ok');
      const rows = () => s.handle.deps.db('media_progress').where({ user_id: s.users.admin.id, rating_key: '101' });
      expect(await rows()).toEqual([]);
      const tv = await fetch(`${fake.url}/:/scrobble?key=101&identifier=com.plexapp.plugins.library`, { headers: { 'X-Plex-Token': fake.tokens.admin, Accept: 'application/json' } });
      expect(tv.status).toBe(200);
      expect((await s.admin.get(`${API}/meta/101`)).body.item.watched).toBe(true);
      expect(await rows()).toMatchObject([{ completed: 1, view_count: 1 }]);
      // the sweep's lookup sees it for the admin only
      expect([...(await s.handle.deps.mediaLibrary.watchedKeys(s.users.admin.id, ['101', '104']))]).toEqual(['101']);
      expect([...(await s.handle.deps.mediaLibrary.watchedKeys(s.users.member.id, ['101', '104']))]).toEqual(['104']);
    });

    it('a down server is a sentence (503), never a raw code or a 500; a change made meanwhile is kept and pushed later', async () => {
      await fake.setMode('down', { role: 'server' });
      for (const path of ['/recent', '/hubs', '/meta/101']) {
        const r = await s.member.get(`${API}${path}`);
        expect(r.status, path).toBe(503);
        expect(r.body.error).toEqual({ code: 'media_server_down', message: expect.stringMatching(/not answering right now/) });
      }
      const offline = await s.member.post(`${API}/meta/102/watched`, { watched: true });
      expect(offline.body).toEqual({ watched: true, viewOffsetMs: null, synced: false });
      await fake.setMode('ok');
      expect((await s.member.get(`${API}/meta/102`)).body.item.watched).toBe(true);
      expect(fake.state().views.alice!['102']).toMatchObject({ viewCount: 1 });
    });

    it('a revoked link: the feeds go quiet (rule 7), actions say to link again, and the status offers it', async () => {
      fake.revoke(fake.tokens.alice);
      const r = await s.member.post(`${API}/watchlist`, { ratingKey: '104' });
      expect(r.status).toBe(409);
      expect(r.body.error).toEqual({ code: 'media_link_revoked', message: expect.stringMatching(/Link it again/) });
      expect((await s.member.get(`${API}/status`)).body).toMatchObject({ linkRevoked: true });
      expect((await s.member.get(`${API}/ondeck`)).body).toEqual({ items: [], hiddenByContent: 0 });
      expect((await s.member.post(`${API}/meta/104/watched`, { watched: false })).body.error.code).toBe('media_link_needed');
      // signing in to Plex again (the fake forgets the revocation) and linking again brings it back
      await unlink(s.member);
      fake.reset();
      await link(s.member, 'alice');
      expect((await s.member.get(`${API}/ondeck`)).body.items.length).toBeGreaterThan(0);
    });
  });

  it('no Plex token reached a response or a log line', () => scan.expectNoTokens(fake.allTokens()));
});
