// Podcast search through Podcast Index (issue 35) against its fake, beside the iTunes and feed
// fakes: the admin's key and secret (admin-only routes; checked once when saved, a refused pair not
// saved; never answered), search asking Podcast Index with signed headers once a pair is set (dead
// feeds left out; following a result works), each fallback to Apple's directory with a notice (the
// key refused, 429, down, slow, garbage), 503 when both directories fail, offline mode refusing
// search, and clearing the pair. The secret scan over every answer and log line runs last.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PodcastIndexStatusResponse, PodcastSearchResponse } from '../../server/modules/podcasts/schema.js';
import { PODCAST_INDEX_SETTING, podcastIndexHeaders } from '../../server/modules/podcasts/podcast-index.js';
import { PI_KEY, PI_SECRET, startFakePodcastIndex, type FakePodcastIndex } from '../fakes/podcast-index.js';
import { startFakePodcasts, type FakePodcasts } from '../fakes/podcasts.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Podcast Index', () => {
  let s: TestServer;
  let feeds: FakePodcasts;
  let pi: FakePodcastIndex;
  const scan = createTokenScan();
  const PATH = '/api/admin/podcasts/podcast-index';

  beforeAll(async () => {
    feeds = await startFakePodcasts();
    pi = await startFakePodcastIndex();
    s = await startTestServer({
      seed: 'household',
      config: { itunesUrl: feeds.url, podcastIndexUrl: pi.base, fetchAllowOrigins: [feeds.origin, pi.origin] },
      overrides: { tuning: { todayFetchTimeoutMs: 1500 } },
    });
    scan.watch(s);
  });
  afterAll(async () => {
    await s.close();
    await pi.close();
    await feeds.close();
  });
  beforeEach(async () => {
    pi.reset();
    await pi.up();
    await feeds.up();
    feeds.state.garbage = false;
    feeds.requests.length = 0;
    pi.feedUrl = `${feeds.url}/feeds/kitchen.xml`;
  });

  const search = async (q = 'kitchen') => {
    const r = await s.member.get(`/api/podcasts/search?q=${q}`);
    expect(r.status).toBe(200);
    return PodcastSearchResponse.parse(r.body);
  };
  const setPair = () => s.admin.put(PATH, { key: PI_KEY, secret: PI_SECRET });

  it('lets only an admin see, set or clear the pair', async () => {
    expect((await s.anon.get(PATH)).status).toBe(401);
    expect((await s.anon.put(PATH, { key: PI_KEY, secret: PI_SECRET })).status).toBe(401);
    expect((await s.anon.delete(PATH)).status).toBe(401);
    expect((await s.member.get(PATH)).status).toBe(403);
    expect((await s.member.put(PATH, { key: PI_KEY, secret: PI_SECRET })).status).toBe(403);
    expect((await s.member.delete(PATH)).status).toBe(403);
    expect(pi.auths).toEqual([]);
    expect(PodcastIndexStatusResponse.parse((await s.admin.get(PATH)).body)).toEqual({ configured: false, keyEnding: null, setAt: null });
  });

  it('searches Apple’s directory while no pair is set', async () => {
    const found = await search();
    expect(found).toMatchObject({ source: 'itunes', notice: null });
    expect(found.results[0]).toMatchObject({ title: 'Kitchen Table Talk', itunesId: 1500001 });
    expect(pi.requests).toEqual([]);
  });

  it('refuses bad input, and a pair Podcast Index refuses is not saved', async () => {
    const missing = await s.admin.put(PATH, { key: PI_KEY });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/secret/i);
    expect((await s.admin.put(PATH, { key: 'has space', secret: PI_SECRET })).status).toBe(400);
    const wrong = await s.admin.put(PATH, { key: PI_KEY, secret: `${PI_SECRET}x` });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toMatchObject({ code: 'podcast_index_refused' });
    expect(wrong.body.error.message).toMatch(/refused that key and secret, so they were not saved/);
    expect(pi.auths.map((a) => a.ok)).toEqual([false]);
    expect((await s.admin.get(PATH)).body.configured).toBe(false);
    pi.mode = 'slow';
    const slow = await s.admin.put(PATH, { key: PI_KEY, secret: PI_SECRET });
    expect(slow.status).toBe(503);
    expect(slow.body.error.message).toMatch(/could not be reached to check the key, so it was not saved/);
    expect((await s.admin.get(PATH)).body.configured).toBe(false);
  });

  it('checks a good pair once with signed headers, saves it and says only its key’s last 4 characters', async () => {
    const saved = await setPair();
    expect(saved.status).toBe(200);
    expect(PodcastIndexStatusResponse.parse(saved.body)).toMatchObject({ configured: true, keyEnding: PI_KEY.slice(-4) });
    expect(pi.auths).toHaveLength(1);
    const auth = pi.auths[0]!;
    expect(auth).toMatchObject({ ok: true, key: PI_KEY, path: '/api/1.0/search/byterm' });
    expect(auth.authorization).toMatch(/^[0-9a-f]{40}$/);
    expect(auth.userAgent).toMatch(/^Hearth\//);
    expect(Math.abs(Number(auth.date) - Date.now() / 1000)).toBeLessThan(300);
    expect(JSON.stringify((await s.admin.get(PATH)).body)).not.toContain(PI_SECRET);
    // the fake, like Podcast Index, refuses the same signature made more than 5 minutes ago
    const at = async (ms: number) => (await fetch(`${pi.base}/search/byterm?q=kitchen&max=1`, { headers: podcastIndexHeaders({ key: PI_KEY, secret: PI_SECRET }, ms, 'Hearth/test') })).status;
    expect(await at(Date.now())).toBe(200);
    expect(await at(Date.now() - 6 * 60_000)).toBe(401);
  });

  it('searches Podcast Index once a pair is set: dead feeds left out, at most what Hearth asks for', async () => {
    const found = await search();
    expect(found.source).toBe('podcastindex');
    expect(found.notice).toBeNull();
    expect(found.results[0]).toEqual({ title: 'Kitchen Table Talk', author: 'The Hosts', imageUrl: `${pi.url}/art/kitchen.jpg`, feedUrl: `${feeds.url}/feeds/kitchen.xml`, itunesId: 1500001, subscribable: true });
    expect(found.results[1]).toMatchObject({ title: 'Kitchen Sink Radio', author: null, imageUrl: `${pi.url}/img/sink.jpg`, itunesId: null });
    expect(found.results.map((r) => r.title)).not.toContain('Kitchen Archive (gone)');
    expect(found.results.length).toBeLessThanOrEqual(25);
    const req = pi.requests.find((r) => r.path === '/api/1.0/search/byterm')!;
    expect(req.query.get('q')).toBe('kitchen');
    expect(req.query.get('max')).toBe('25');
    expect(req.query.has('clean')).toBe(true);
    expect(feeds.requests.filter((r) => r.path === '/search')).toEqual([]);
  });

  it('follows a Podcast Index result by its feed address', async () => {
    const first = (await search()).results[0]!;
    const sub = await s.member.post('/api/podcasts/subscriptions', { feedUrl: first.feedUrl });
    expect(sub.status).toBe(201);
    expect(sub.body.subscription).toMatchObject({ title: 'Kitchen Table Talk' });
    expect((await s.member.get(`/api/podcasts/subscriptions/${sub.body.subscription.id}/episodes`)).body.episodes.length).toBeGreaterThan(0);
  });

  it('falls back to Apple’s directory, saying so, when Podcast Index is busy, down, slow or answers garbage', async () => {
    for (const [how, notice] of [
      ['busy', /asked Hearth to slow down/],
      ['garbage', /did not answer just now/],
      ['slow', /did not answer just now/],
      ['down', /did not answer just now/],
    ] as const) {
      if (how === 'down') await pi.down();
      else pi.mode = how;
      const found = await search();
      expect(found.source, how).toBe('itunes');
      expect(found.notice, how).toMatch(notice);
      expect(found.results[0]).toMatchObject({ title: 'Kitchen Table Talk', itunesId: 1500001 });
      pi.mode = 'ok';
      await pi.up();
    }
    expect(s.logger.lines.some((l) => /fell back to Apple/.test(String(l.msg)))).toBe(true);
  });

  it('tells the admin to check the key when Podcast Index refuses it (a revoked key), falling back for that search', async () => {
    await s.handle.deps.settings.set(PODCAST_INDEX_SETTING, { key: PI_KEY, secret: 'revoked-secret', setAt: new Date().toISOString() });
    const found = await search();
    expect(found.source).toBe('itunes');
    expect(found.notice).toMatch(/refused the household’s key.*An admin can check the Podcast Index key and secret on the Listen page/);
    expect(pi.auths.at(-1)?.ok).toBe(false);
  });

  it('answers 503 with a sentence when both directories fail', async () => {
    await setPair();
    pi.mode = 'busy';
    await feeds.down();
    const r = await s.member.get('/api/podcasts/search?q=kitchen');
    expect(r.status).toBe(503);
    expect(r.body.error).toMatchObject({ code: 'source_unavailable' });
    expect(r.body.error.message).toMatch(/Neither Podcast Index nor Apple’s podcast directory answered/);
  });

  it('refuses search in offline mode, saying who switched it on', async () => {
    expect((await s.admin.put('/api/admin/connectivity', { offlineMode: true })).status).toBe(200);
    try {
      const r = await s.member.get('/api/podcasts/search?q=kitchen');
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('offline_mode');
      expect(r.body.error.message).toMatch(/podcast search is off.*An admin switched offline mode on in Admin › Connectivity/);
      const save = await setPair();
      expect(save.status).toBe(503);
      expect(save.body.error.message).toMatch(/Podcast Index key cannot be checked now, so it was not saved.*An admin switched offline mode on/);
      expect(pi.requests).toEqual([]);
    } finally {
      await s.admin.put('/api/admin/connectivity', { offlineMode: false });
    }
  });

  it('clears the pair: search is Apple’s again', async () => {
    expect((await s.admin.delete(PATH)).status).toBe(204);
    expect((await s.admin.get(PATH)).body).toEqual({ configured: false, keyEnding: null, setAt: null });
    expect((await search()).source).toBe('itunes');
    expect(pi.requests).toEqual([]);
  });

  it('never put the key’s secret in an answer or a log line', () => scan.expectNoTokens([PI_SECRET, PI_KEY]));
});
