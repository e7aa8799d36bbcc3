// Films (issue 35): /api/movies against the TMDB fake (reference/media-hubs.md §3.2) and the Plex
// fake (reference/plex.md §7, §8) — the three search paths (Plex's catalogue for a linked member,
// TMDB once an admin adds a token, else the household's library), one film with the Plex badge
// matched by its ids, posters served by Hearth, each member's private watchlist copied to their own
// Plex watchlist (and kept when that copy fails), TMDB down, slow, garbage, refusing the token or
// asking to wait, and offline mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../server/platform/clock.js';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { startFakeTmdb, TMDB_POSTER, TMDB_TOKEN, type FakeTmdb } from '../fakes/tmdb.js';
import { getBytes } from '../harness/multipart.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const API = '/api/movies';
const DAY = 24 * 60 * 60_000;
const STARFALL = 'plex-5f1a2b3c4d5e6f7081920301';
/** The Plex catalogue key of the fake's film 101 (The Night Harbor), which the household's Plex has. */
const NIGHT_HARBOR_PLEX = 'plex-5d776c2296b655001fe20101';

describe('films (/api/movies)', () => {
  const clock = createManualClock(new Date('2026-12-01T12:00:00Z'));
  let tmdb: FakeTmdb;
  let plex: FakeMediaServer;
  let s: TestServer;
  const tmdbCalls = (path: string) => tmdb.requests.filter((r) => r.path === path).length;

  beforeAll(async () => {
    tmdb = await startFakeTmdb();
    plex = await startFakeMediaServer();
    s = await startTestServer({
      seed: 'household',
      config: { tmdbUrl: tmdb.url, tmdbImageUrl: tmdb.imageUrl, fetchAllowOrigins: [tmdb.origin, plex.url], mediaAccountUrl: plex.accountUrl, mediaDiscoverUrl: plex.discoverUrl, mediaLinkPageUrl: `${plex.url}/auth` },
      overrides: { clock, tuning: { mediaHealthTtlMs: 0, mediaProbeMs: 1_000, todayFetchTimeoutMs: 1_500 } },
    });
  });
  afterAll(async () => {
    await s?.close();
    await tmdb?.close();
    await plex?.close();
  });

  it('answers 401 without a session, 403 to a member on the admin routes, and 400 with a sentence to bad input, asking no one', async () => {
    for (const path of ['/search?q=night', '/watchlist', '/tmdb-510101', '/tmdb-510101/image', '/admin/tmdb']) expect((await s.anon.get(`${API}${path}`)).status, path).toBe(401);
    expect((await s.anon.post(`${API}/watchlist`, { id: 'tmdb-510101' })).status).toBe(401);
    expect((await s.anon.req('DELETE', `${API}/watchlist/tmdb-510101`)).status).toBe(401);
    expect((await s.anon.post(`${API}/watchlist/tmdb-510101/plex`)).status).toBe(401);
    expect((await s.anon.put(`${API}/admin/tmdb`, { token: TMDB_TOKEN })).status).toBe(401);
    expect((await s.member.get(`${API}/admin/tmdb`)).status).toBe(403);
    expect((await s.member.put(`${API}/admin/tmdb`, { token: TMDB_TOKEN })).status).toBe(403);
    expect((await s.member.req('DELETE', `${API}/admin/tmdb`)).status).toBe(403);
    const bad = [
      await s.member.get(`${API}/search?q=`),
      await s.member.get(`${API}/search`),
      await s.member.get(`${API}/603`),
      await s.member.get(`${API}/tmdb-abc`),
      await s.member.get(`${API}/plex-123`),
      await s.member.post(`${API}/watchlist`, {}),
      await s.member.post(`${API}/watchlist`, { id: 603 }),
      await s.member.req('DELETE', `${API}/watchlist/nothing`),
      await s.admin.put(`${API}/admin/tmdb`, { token: 'abc123' }),
      await s.admin.put(`${API}/admin/tmdb`, {}),
    ];
    for (const r of bad) {
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/\w+ \w+/);
    }
    expect(tmdb.requests).toEqual([]);
  });

  it('with no Plex and no TMDB token a search says what would make it work', async () => {
    const r = await s.member.get(`${API}/search?q=night`);
    expect(r.status).toBe(409);
    expect(r.body.error.message).toMatch(/link your own Plex account.*TMDB token/);
    expect((await s.admin.get(`${API}/admin/tmdb`)).body).toEqual({ configured: false });
  });

  it('an admin’s TMDB token: searches TMDB with it in the Authorization header only, never answered or logged; posters served by Hearth, once', async () => {
    const set = await s.admin.put(`${API}/admin/tmdb`, { token: TMDB_TOKEN });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ configured: true });
    expect((await s.admin.get(`${API}/admin/tmdb`)).body).toEqual({ configured: true });

    const r = await s.member.get(`${API}/search?q=Night`);
    expect(r.status).toBe(200);
    expect(r.body.source).toBe('tmdb');
    expect(r.body.results).toEqual([
      { id: 'tmdb-510101', title: 'The Night Harbor', year: 2019, overview: 'A ferry, a storm and one long night.', posterUrl: '/api/movies/tmdb-510101/image' },
      { id: 'tmdb-777001', title: 'Night Train to Nowhere', year: 2011, overview: '', posterUrl: null },
    ]);
    expect(JSON.stringify(r.body)).not.toContain(tmdb.url);
    expect(tmdb.authorizations.at(-1)).toBe(`Bearer ${TMDB_TOKEN}`);
    for (const q of tmdb.requests) expect([...q.query.values()].join(' ')).not.toContain(TMDB_TOKEN);
    expect(tmdb.requests.at(-1)?.userAgent).toMatch(/^Hearth\//);
    await s.admin.get(`${API}/search?q=night`);
    expect(tmdbCalls('/3/search/movie')).toBe(1);

    const detail = await s.member.get(`${API}/tmdb-510101`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ source: 'tmdb', movie: { title: 'The Night Harbor', runtimeMinutes: 112, genres: ['Drama', 'Thriller'], ids: { tmdb: '510101', imdb: 'tt7200101' } }, inPlex: null, onWatchlist: false });
    const unknown = await s.member.get(`${API}/tmdb-999999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('TMDB has no film with that number.');

    for (let i = 0; i < 2; i++) {
      const poster = await getBytes(s.url, s.member, `${API}/tmdb-510101/image`);
      expect(poster.status).toBe(200);
      expect(poster.type).toBe('image/jpeg');
      expect(poster.bytes.equals(TMDB_POSTER)).toBe(true);
    }
    expect(tmdb.requests.filter((q) => q.path.startsWith('/t/p/'))).toHaveLength(1);
    expect((await s.member.get(`${API}/tmdb-777001/image`)).status).toBe(404);

    const logged = JSON.stringify(s.logger.lines);
    expect(logged).not.toContain(TMDB_TOKEN);
    expect(JSON.stringify((await s.admin.get(`${API}/admin/tmdb`)).body)).not.toContain(TMDB_TOKEN);
  });

  it('the Plex badge by id: a TMDB film the household’s Plex has (matched by tmdb/imdb ids), for any member', async () => {
    expect((await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: plex.url, token: plex.tokens.admin })).status).toBe(200);
    expect((await s.member.get(`${API}/tmdb-510101`)).body.inPlex).toEqual({ ratingKey: '101' });
    expect((await s.member.get(`${API}/tmdb-510301`)).body.inPlex).toBeNull();
    await plex.setMode('down', { role: 'server' });
    const r = await s.member.get(`${API}/tmdb-510101`);
    expect(r.status).toBe(200);
    expect(r.body.inPlex).toBeNull();
    await plex.setMode('ok');
  });

  it('each member’s watchlist is their own: adding twice is 409, another’s entry 404, an unknown film adds nothing', async () => {
    const added = await s.member.post(`${API}/watchlist`, { id: 'tmdb-510101' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ movie: { id: 'tmdb-510101', title: 'The Night Harbor', year: 2019, posterUrl: '/api/movies/tmdb-510101/image', addedAt: clock.now().toISOString(), plex: 'off' }, plexMessage: null });
    const again = await s.member.post(`${API}/watchlist`, { id: 'tmdb-510101' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already on your watchlist/);
    expect((await s.member.post(`${API}/watchlist`, { id: 'tmdb-999999' })).status).toBe(404);

    expect((await s.member.get(`${API}/watchlist`)).body.movies.map((m: { id: string }) => m.id)).toEqual(['tmdb-510101']);
    expect((await s.member.get(`${API}/tmdb-510101`)).body.onWatchlist).toBe(true);
    // the admin sees none of it, and cannot take it away
    expect((await s.admin.get(`${API}/watchlist`)).body.movies).toEqual([]);
    expect((await s.admin.get(`${API}/tmdb-510101`)).body.onWatchlist).toBe(false);
    expect((await s.admin.req('DELETE', `${API}/watchlist/tmdb-510101`)).status).toBe(404);
    expect((await s.member.get(`${API}/watchlist`)).body.movies).toHaveLength(1);
  });

  it('without a TMDB token nor a linked Plex account: the household’s library is searched; kept TMDB films still show', async () => {
    expect((await s.admin.req('DELETE', `${API}/admin/tmdb`)).status).toBe(204);
    const r = await s.member.get(`${API}/search?q=northbound`);
    expect(r.status).toBe(200);
    expect(r.body.source).toBe('library');
    expect(r.body.results.map((m: { id: string; year: number }) => `${m.id} ${m.year}`).sort()).toEqual(['lib-104 2008', 'lib-105 1987']);
    for (const m of r.body.results) expect(m.posterUrl).toMatch(/^\/api\/mediaserver\/img\?/);
    const lib = await s.member.get(`${API}/lib-104`);
    expect(lib.body).toMatchObject({ source: 'library', movie: { title: 'Northbound', ids: { tmdb: '510104', imdb: 'tt7200104' } }, inPlex: { ratingKey: '104' } });
    expect((await s.member.get(`${API}/lib-99999`)).status).toBe(404);
    // a show of the library is not a film
    expect((await s.member.get(`${API}/lib-201`)).status).toBe(404);
    const kept = await s.member.get(`${API}/tmdb-510101`);
    expect(kept.status).toBe(200);
    expect(kept.body.movie.title).toBe('The Night Harbor');
    const never = await s.member.get(`${API}/tmdb-123456`);
    expect(never.status).toBe(409);
    expect(never.body.error.message).toMatch(/TMDB is not set up/);
  });

  it('a linked member searches Plex’s catalogue; the watchlist is copied to their own Plex watchlist, and a failed copy keeps Hearth’s entry', async () => {
    const pin = await s.member.post('/api/mediaserver/auth/pin');
    plex.approvePin(pin.body.id, 'alice');
    expect((await s.member.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status).toBe(200);
    expect((await s.admin.put(`${API}/admin/tmdb`, { token: TMDB_TOKEN })).status).toBe(200);

    const r = await s.member.get(`${API}/search?q=starfall`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ source: 'plex', results: [{ id: STARFALL, title: 'Starfall Protocol', year: 2024, overview: '', posterUrl: `/api/movies/${STARFALL}/image` }] });
    expect(JSON.stringify(r.body)).not.toContain(plex.url);
    const poster = await getBytes(s.url, s.member, `${API}/${STARFALL}/image`);
    expect(poster.status).toBe(200);
    expect(poster.type).toBe('image/jpeg');

    expect((await s.member.get(`${API}/${STARFALL}`)).body).toMatchObject({ source: 'plex', movie: { ids: { tmdb: '510301', imdb: 'tt7200301' } }, inPlex: null });
    expect((await s.member.get(`${API}/${NIGHT_HARBOR_PLEX}`)).body.inPlex).toEqual({ ratingKey: '101' });
    // the admin has not linked Plex: their search is TMDB's
    expect((await s.admin.get(`${API}/search?q=starfall`)).body.source).toBe('tmdb');

    const mirrored = await s.member.post(`${API}/watchlist`, { id: STARFALL });
    expect(mirrored.status).toBe(201);
    expect(mirrored.body).toMatchObject({ movie: { plex: 'mirrored' }, plexMessage: null });
    expect(plex.state().watchlists.alice).toContain('Starfall Protocol');

    // a TMDB film Plex knows by its id: looked up, then copied
    expect((await s.member.post(`${API}/watchlist`, { id: 'tmdb-510301' })).status).toBe(201);
    // a TMDB film Plex does not know: on Hearth's watchlist, the answer says it is not on Plex's
    const unknownToPlex = await s.member.post(`${API}/watchlist`, { id: 'tmdb-777001' });
    expect(unknownToPlex.status).toBe(201);
    expect(unknownToPlex.body.movie.plex).toBe('failed');
    expect(unknownToPlex.body.plexMessage).toMatch(/Plex does not know this film.*on your watchlist here/);

    // Plex's watchlist service down: the entry is kept all the same
    await plex.setMode('down', { role: 'discover' });
    const failed = await s.member.post(`${API}/watchlist`, { id: 'lib-104' });
    expect(failed.status).toBe(201);
    expect(failed.body.movie).toMatchObject({ id: 'lib-104', plex: 'failed' });
    expect(failed.body.plexMessage).toMatch(/not put on your Plex watchlist.*on your watchlist here/);
    expect(failed.body.plexMessage).not.toContain(plex.url);
    const down = await s.member.get(`${API}/search?q=copper`);
    expect(down.status).toBe(503);
    expect(down.body.error.message).toMatch(/\w+ \w+/);
    await plex.setMode('ok');
    const list = (await s.member.get(`${API}/watchlist`)).body.movies as Array<{ id: string; plex: string }>;
    expect(list.map((m) => `${m.id} ${m.plex}`)).toEqual(['lib-104 failed', 'tmdb-777001 failed', 'tmdb-510301 mirrored', `${STARFALL} mirrored`, 'tmdb-510101 off']);

    // tried again once Plex answers: the copy is made; another member's entry is not there for them
    const again = await s.member.post(`${API}/watchlist/lib-104/plex`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ movie: { id: 'lib-104', plex: 'mirrored' }, plexMessage: null });
    expect(plex.state().watchlists.alice).toContain('Northbound');
    expect((await s.admin.post(`${API}/watchlist/lib-104/plex`)).status).toBe(404);

    // removing takes it off Plex's watchlist too
    expect((await s.member.req('DELETE', `${API}/watchlist/${STARFALL}`)).status).toBe(204);
    expect(plex.state().watchlists.alice).not.toContain('Starfall Protocol');
    expect((await s.member.req('DELETE', `${API}/watchlist/${STARFALL}`)).status).toBe(404);
  });

  it('TMDB down, slow, sending garbage, refusing the token or asking to wait: no copy is a 503 sentence; a kept film is served', async () => {
    const search = (q: string) => s.admin.get(`${API}/search?q=${q}`);
    await tmdb.down();
    let r = await search('harbor');
    expect(r.status).toBe(503);
    expect(r.body.error).toEqual({ code: 'source_unavailable', message: expect.stringMatching(/TMDB could not be reached.*no copy yet/) });
    // the film kept from before is still there, however old
    clock.advance(8 * DAY);
    expect((await s.admin.get(`${API}/tmdb-510101`)).status).toBe(200);
    await tmdb.up();

    for (const [mode, q] of [['slow', 'orchard'], ['garbage', 'lanterns'], ['busy', 'protocol']] as const) {
      tmdb.mode = mode;
      r = await search(q);
      expect(r.status, mode).toBe(503);
      expect(r.body.error.message, mode).toMatch(/TMDB could not be reached/);
    }
    tmdb.mode = 'unauthorized';
    r = await search('train');
    expect(r.status).toBe(503);
    expect(r.body.error).toEqual({ code: 'tmdb_token_refused', message: expect.stringMatching(/TMDB refused the household’s token/) });
    tmdb.mode = 'ok';
    // a new token: TMDB is asked afresh
    expect((await s.admin.put(`${API}/admin/tmdb`, { token: TMDB_TOKEN })).status).toBe(200);
    expect((await search('train')).body.results.map((m: { title: string }) => m.title)).toEqual(['Night Train to Nowhere']);
  });

  it('in offline mode the watchlist lists and outside searches are refused with a sentence; nothing is asked', async () => {
    const offline = await startTestServer({ seed: 'household', config: { tmdbUrl: tmdb.url, tmdbImageUrl: tmdb.imageUrl, fetchAllowOrigins: [tmdb.origin], offline: true } });
    tmdb.reset();
    try {
      expect((await offline.admin.put(`${API}/admin/tmdb`, { token: TMDB_TOKEN })).status).toBe(200);
      expect((await offline.member.get(`${API}/watchlist`)).body).toEqual({ movies: [] });
      const r = await offline.member.get(`${API}/search?q=harbor`);
      expect(r.status).toBe(503);
      expect(r.body.error.message).toMatch(/offline mode/);
      const d = await offline.member.get(`${API}/tmdb-510101`);
      expect(d.status).toBe(503);
      expect(d.body.error.message).toMatch(/offline mode/);
      expect((await offline.member.get(`${API}/${STARFALL}`)).body.error.message).toMatch(/offline mode/);
      expect(tmdb.requests).toEqual([]);
    } finally {
      await offline.close();
    }
  });
});
