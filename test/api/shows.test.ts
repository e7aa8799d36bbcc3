// Shows (issue 35): /api/shows against the TVmaze fake (reference/media-hubs.md §3.1) — search,
// a show's guide with each member's private ticks, the watchlist and schedule, posters served by
// Hearth, the guide kept a day and served stale when TVmaze is down, slow, sends garbage or asks to
// wait, offline mode, and the household's Plex badge through the media-server fake.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../server/platform/clock.js';
import { startFakeMediaServer, type FakeMediaServer } from '../fakes/media-server.js';
import { POSTER_JPEG, startFakeTvmaze, type FakeTvmaze } from '../fakes/tvmaze.js';
import { getBytes } from '../harness/multipart.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const API = '/api/shows';
const HOUR = 60 * 60_000;
const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;

describe('shows (/api/shows)', () => {
  const clock = createManualClock(new Date('2026-12-01T12:00:00Z'));
  let tv: FakeTvmaze;
  let plex: FakeMediaServer;
  let s: TestServer;
  const showRequests = (id: number) => tv.requests.filter((r) => r.path === `/shows/${id}`).length;

  beforeAll(async () => {
    tv = await startFakeTvmaze({ now: () => clock.now() });
    plex = await startFakeMediaServer();
    s = await startTestServer({
      seed: 'household',
      config: { tvmazeUrl: tv.url, fetchAllowOrigins: [tv.origin, plex.url], mediaAccountUrl: plex.accountUrl, mediaDiscoverUrl: plex.discoverUrl, mediaLinkPageUrl: `${plex.url}/auth` },
      overrides: { clock, tuning: { mediaHealthTtlMs: 0, mediaProbeMs: 1_000, todayFetchTimeoutMs: 1_500 } },
    });
  });
  afterAll(async () => {
    await s?.close();
    await tv?.close();
    await plex?.close();
  });
  beforeEach(() => tv.reset());

  it('answers 401 without a session and 400 with a sentence to bad input, asking TVmaze nothing', async () => {
    for (const path of ['/search?q=harbor', '/schedule', '/watchlist', '/9901', '/9901/image']) expect((await s.anon.get(`${API}${path}`)).status, path).toBe(401);
    expect((await s.anon.post(`${API}/watchlist`, { tvmazeId: 9901 })).status).toBe(401);
    expect((await s.anon.req('PUT', `${API}/9901/episodes/990121`, { watched: true })).status).toBe(401);
    expect((await s.anon.req('DELETE', `${API}/watchlist/9901`)).status).toBe(401);
    const bad = [
      await s.member.get(`${API}/search?q=`),
      await s.member.get(`${API}/abc`),
      await s.member.get(`${API}/0`),
      await s.member.post(`${API}/watchlist`, {}),
      await s.member.post(`${API}/watchlist`, { tvmazeId: 'harbor' }),
      await s.member.req('PUT', `${API}/9901/episodes/990121`, { watched: 'yes' }),
      await s.member.req('PUT', `${API}/9901/episodes/x`, { watched: true }),
    ];
    for (const r of bad) {
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/\w+ \w+/);
    }
    expect(tv.requests).toEqual([]);
  });

  it('searches TVmaze once a day per search; posters are Hearth’s own addresses, summaries plain text', async () => {
    const r = await s.member.get(`${API}/search?q=Harbor`);
    expect(r.status).toBe(200);
    expect(r.body.results.map((x: { name: string }) => x.name)).toEqual(['Harbor Lights', 'Harbor Patrol']);
    expect(r.body.results[0]).toMatchObject({ tvmazeId: 9901, status: 'Running', network: 'Example One', imageUrl: '/api/shows/9901/image', summary: 'A lighthouse keeper’s family on a stormy coast.' });
    expect(JSON.stringify(r.body)).not.toContain(tv.url);
    expect(tv.requests.find((q) => q.path === '/search/shows')?.userAgent).toMatch(/^Hearth\//);
    await s.admin.get(`${API}/search?q=harbor`);
    expect(tv.requests.filter((q) => q.path === '/search/shows')).toHaveLength(1);
    expect((await s.member.get(`${API}/search?q=nothing-like-it`)).body.results).toEqual([]);
  });

  it('a show: its seasons, episodes in the household’s time, the next one; unknown is 404; the poster fetched once', async () => {
    const r = await s.member.get(`${API}/9901`);
    expect(r.status).toBe(200);
    expect(r.body.show).toMatchObject({ tvmazeId: 9901, name: 'Harbor Lights', externals: { tvdb: 300201, imdb: 'tt7200201' }, schedule: { time: '21:00', days: ['Tuesday'] } });
    expect(r.body.seasons).toEqual([
      { number: 1, episodeCount: 3, premiereDate: expect.any(String), endDate: null },
      { number: 2, episodeCount: 4, premiereDate: expect.any(String), endDate: null },
    ]);
    expect(r.body.episodes).toHaveLength(7);
    for (const e of r.body.episodes) expect(e.airsAt).toMatch(ISO_WITH_OFFSET);
    expect(r.body.nextEpisode).toMatchObject({ id: 990123, season: 2, number: 3, watched: false });
    expect(Date.parse(r.body.nextEpisode.airsAt)).toBe(clock.now().getTime() + 2 * 24 * HOUR);
    expect(r.body).toMatchObject({ onWatchlist: false, inPlex: null, freshness: { stale: false, ageSeconds: 0 } });

    const ended = await s.member.get(`${API}/9902`);
    expect(ended.body).toMatchObject({ nextEpisode: null, show: { imageUrl: null, network: 'Example Stream', summary: '' } });
    const noPoster = await s.member.get(`${API}/9902/image`);
    expect(noPoster.status).toBe(404);
    expect(noPoster.body.error.message).toMatch(/no picture/);

    const unknown = await s.member.get(`${API}/123456`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('The TV guide has no show with that number.');

    for (let i = 0; i < 2; i++) {
      const poster = await getBytes(s.url, s.member, `${API}/9901/image`);
      expect(poster.status).toBe(200);
      expect(poster.type).toBe('image/jpeg');
      expect(poster.bytes.equals(POSTER_JPEG)).toBe(true);
    }
    expect(tv.requests.filter((q) => q.path.startsWith('/images/'))).toHaveLength(1);
  });

  it('each member’s watchlist and ticks are their own; adding twice is 409, removing what is not there 404', async () => {
    const added = await s.member.post(`${API}/watchlist`, { tvmazeId: 9901 });
    expect(added.status).toBe(201);
    expect(added.body.show).toMatchObject({ tvmazeId: 9901, name: 'Harbor Lights', status: 'Running', watchedCount: 0, episodeCount: 7, nextEpisode: { season: 2, number: 3 } });
    const again = await s.member.post(`${API}/watchlist`, { tvmazeId: 9901 });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Harbor Lights is already on your watchlist.');
    const unknown = await s.member.post(`${API}/watchlist`, { tvmazeId: 123456 });
    expect(unknown.status).toBe(404);

    expect((await s.member.req('PUT', `${API}/9901/episodes/990121`, { watched: true })).body).toEqual({ episodeId: 990121, watched: true });
    expect((await s.member.req('PUT', `${API}/9901/episodes/990122`, { watched: true })).status).toBe(200);
    expect((await s.member.req('PUT', `${API}/9901/episodes/990122`, { watched: false })).status).toBe(200);
    const notItsEpisode = await s.member.req('PUT', `${API}/9901/episodes/990211`, { watched: true });
    expect(notItsEpisode.status).toBe(404);
    expect(notItsEpisode.body.error.message).toMatch(/not one of Harbor Lights/);

    const mine = await s.member.get(`${API}/watchlist`);
    expect(mine.body.shows).toEqual([expect.objectContaining({ tvmazeId: 9901, watchedCount: 1 })]);
    const show = await s.member.get(`${API}/9901`);
    expect(show.body.onWatchlist).toBe(true);
    expect(show.body.episodes.filter((e: { watched: boolean }) => e.watched).map((e: { id: number }) => e.id)).toEqual([990121]);

    // the admin sees none of it
    expect((await s.admin.get(`${API}/watchlist`)).body.shows).toEqual([]);
    const theirs = await s.admin.get(`${API}/9901`);
    expect(theirs.body.onWatchlist).toBe(false);
    expect(theirs.body.episodes.some((e: { watched: boolean }) => e.watched)).toBe(false);
    expect((await s.admin.req('DELETE', `${API}/watchlist/9901`)).status).toBe(404);

    expect((await s.member.req('DELETE', `${API}/watchlist/9901`)).status).toBe(204);
    expect((await s.member.req('DELETE', `${API}/watchlist/9901`)).status).toBe(404);
    expect((await s.member.get(`${API}/watchlist`)).body.shows).toEqual([]);
  });

  it('the schedule: what airs in the next 60 days from the member’s watchlist, soonest first', async () => {
    for (const id of [9901, 9902, 9903]) expect((await s.member.post(`${API}/watchlist`, { tvmazeId: id })).status).toBe(201);
    const r = await s.member.get(`${API}/schedule`);
    expect(r.status).toBe(200);
    expect(r.body.episodes.map((e: { showName: string; season: number; number: number }) => `${e.showName} ${e.season}.${e.number}`)).toEqual(['Harbor Lights 2.3', 'Harbor Patrol 1.2', 'Harbor Lights 2.4', 'Harbor Patrol 1.3']);
    for (const e of r.body.episodes) expect(e.airsAt).toMatch(ISO_WITH_OFFSET);
    expect(r.body.unavailable).toEqual([]);
    expect((await s.admin.get(`${API}/schedule`)).body.episodes).toEqual([]);
    for (const id of [9901, 9902, 9903]) await s.member.req('DELETE', `${API}/watchlist/${id}`);
  });

  it('the Plex badge: a show the household’s Plex has (matched by its ids) for a linked member; Plex down is no badge, not an error', async () => {
    expect((await s.admin.post('/api/mediaserver/config', { mode: 'manual', serverUrl: plex.url, token: plex.tokens.admin })).status).toBe(200);
    const pin = await s.member.post('/api/mediaserver/auth/pin');
    plex.approvePin(pin.body.id, 'alice');
    expect((await s.member.post('/api/mediaserver/me/link', { pinId: pin.body.id })).status).toBe(200);

    expect((await s.member.get(`${API}/9901`)).body.inPlex).toEqual({ ratingKey: '201' });
    expect((await s.member.get(`${API}/9903`)).body.inPlex).toBeNull();
    await plex.setMode('down');
    const r = await s.member.get(`${API}/9901`);
    expect(r.status).toBe(200);
    expect(r.body.inPlex).toBeNull();
    await plex.setMode('ok');
  });

  it('Plex pre-fills the ticks: a linked member’s own viewed state on the household’s Plex (the show matched by its ids), except the ticks they set themselves', async () => {
    // linked as alice just before; alice has watched 1.1 on Plex, and ticked 2.1 (and unticked 2.2) in Hearth
    const seen = async (c = s.member) => ((await c.get(`${API}/9901`)).body.episodes as Array<{ id: number; watched: boolean }>).filter((e) => e.watched).map((e) => e.id);
    expect(await seen()).toEqual([990111, 990121]);
    // watched on Plex later (here through Hearth's Media page, with her own token): ticked here too
    expect((await s.member.post('/api/mediaserver/meta/20112/watched', { watched: true })).status).toBe(200);
    expect((await s.member.post('/api/mediaserver/meta/20122/watched', { watched: true })).status).toBe(200);
    expect(await seen()).toEqual([990111, 990112, 990121]);
    // her own untick of 2.2 (set before Plex said it) and a new one of 1.1 are hers: Plex does not change them
    expect((await s.member.req('PUT', `${API}/9901/episodes/990111`, { watched: false })).status).toBe(200);
    expect(await seen()).toEqual([990112, 990121]);
    // Plex unwatching takes only Plex's own tick away
    expect((await s.member.post('/api/mediaserver/meta/20112/watched', { watched: false })).status).toBe(200);
    expect((await s.member.post('/api/mediaserver/meta/20121/watched', { watched: false })).status).toBe(200);
    expect(await seen()).toEqual([990121]);
    // Plex down: the ticks stay as they were
    await plex.setMode('down');
    expect(await seen()).toEqual([990121]);
    await plex.setMode('ok');
    // the admin has not linked Plex: nothing of anyone's Plex reaches their ticks
    expect(await seen(s.admin)).toEqual([]);
  });

  it('kept a day; after that TVmaze down, slow, garbage or 429 serves the last copy as stale, and no copy is a 503 with a sentence', async () => {
    clock.advance(25 * HOUR); // what the tests before fetched is a day old now
    expect((await s.member.get(`${API}/9903`)).status).toBe(200);
    expect((await s.member.get(`${API}/9903`)).body.freshness).toMatchObject({ stale: false });
    expect(showRequests(9903)).toBe(1);

    clock.advance(25 * HOUR);
    await tv.down();
    const down = await s.member.get(`${API}/9903`);
    expect(down.status).toBe(200);
    expect(down.body.freshness).toMatchObject({ stale: true, ageSeconds: 25 * 3600 });
    // 9902 was fetched two days ago: stale, still there
    expect((await s.member.get(`${API}/9902`)).body.freshness.stale).toBe(true);
    const never = await s.member.get(`${API}/search?q=orchard`);
    expect(never.status).toBe(503);
    expect(never.body.error).toEqual({ code: 'source_unavailable', message: expect.stringMatching(/could not be reached.*no copy yet/) });
    await tv.up();

    for (const mode of ['garbage', 'slow'] as const) {
      clock.advance(2 * HOUR); // past the backoff of the failure before
      tv.mode = mode;
      const r = await s.member.get(`${API}/9903`);
      expect(r.status, mode).toBe(200);
      expect(r.body.freshness.stale, mode).toBe(true);
      expect(r.body.show.name).toBe('Harbor Patrol');
    }
    tv.mode = 'ok';

    clock.advance(2 * HOUR);
    tv.limitPer10s = 0;
    expect((await s.member.get(`${API}/9903`)).body.freshness.stale).toBe(true);
    const asked = showRequests(9903);
    // asked to wait: not asked again at once, even with TVmaze answering again
    tv.limitPer10s = 20;
    expect((await s.member.get(`${API}/9903`)).body.freshness.stale).toBe(true);
    expect(showRequests(9903)).toBe(asked);
    clock.advance(2 * HOUR);
    expect((await s.member.get(`${API}/9903`)).body.freshness.stale).toBe(false);
  });

  it('in offline mode TVmaze is never asked: no copy is a 503 that says so', async () => {
    const offline = await startTestServer({ seed: 'household', config: { tvmazeUrl: tv.url, fetchAllowOrigins: [tv.origin], offline: true } });
    try {
      const r = await offline.member.get(`${API}/search?q=harbor`);
      expect(r.status).toBe(503);
      expect(r.body.error.message).toMatch(/offline mode/);
      expect((await offline.member.get(`${API}/watchlist`)).body.shows).toEqual([]);
      expect(tv.requests).toEqual([]);
    } finally {
      await offline.close();
    }
  });
});
