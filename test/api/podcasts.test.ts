// Podcasts over HTTP against the fake iTunes directory and feed host: search (a show without a
// feed address is not subscribable; a garbage answer is a 502 sentence), private subscriptions,
// episodes read from the feed (enclosure, itunes:duration in its three forms, items without audio
// left out, duplicates by guid or enclosure address kept once), a refresh picking up a new episode
// that lands in the inbox, progress (finished within 30 s of the end, the later updatedAt wins),
// and the access rules (anonymous 401, another member's show or episode 404, bad input 400).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EpisodesResponse, PodcastSearchResponse, SubscriptionResponse } from '../../server/modules/podcasts/schema.js';
import { AUDIO, item, startFakePodcasts, type FakePodcasts } from '../fakes/podcasts.js';
import { TINY_JPEG } from '../fakes/images.js';
import { getBytes } from '../harness/multipart.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('Podcasts', () => {
  let s: TestServer;
  let fake: FakePodcasts;

  beforeAll(async () => {
    fake = await startFakePodcasts();
    s = await startTestServer({ seed: 'household', config: { itunesUrl: fake.url, fetchAllowOrigins: [fake.origin] }, overrides: { tuning: { todayFetchTimeoutMs: 1500 } } });
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
  });
  beforeEach(async () => {
    fake.state.extraItems = [];
    fake.state.garbage = false;
    fake.state.gone = false;
    fake.state.announceMove = false;
    fake.requests.length = 0;
    await s.handle.deps.db('podcast_subscriptions').delete();
  });

  const subscribe = async () => SubscriptionResponse.parse((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/kitchen.xml` })).body).subscription;

  it('guards every route', async () => {
    for (const [m, path] of [
      ['get', '/api/podcasts/search?q=kitchen'],
      ['get', '/api/podcasts/subscriptions'],
      ['get', '/api/podcasts/inbox'],
      ['get', '/api/podcasts/subscriptions/x/episodes'],
      ['get', '/api/podcasts/episodes/x'],
    ] as const) expect((await s.anon[m](path)).status).toBe(401);
    expect((await s.anon.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/kitchen.xml` })).status).toBe(401);
    expect((await s.anon.put('/api/podcasts/episodes/x/progress', { positionSec: 1, durationSec: 2, updatedAt: new Date().toISOString() })).status).toBe(401);
  });

  it('searches iTunes; a show without a feed address is not subscribable', async () => {
    const found = PodcastSearchResponse.parse((await s.member.get('/api/podcasts/search?q=kitchen')).body);
    expect(found.results).toEqual([
      { title: 'Kitchen Table Talk', author: 'The Hosts', imageUrl: `${fake.url}/art.jpg`, feedUrl: `${fake.url}/feeds/kitchen.xml`, itunesId: 1500001, subscribable: true },
      { title: 'Kitchen Secrets (Apple only)', author: 'Somebody', imageUrl: null, feedUrl: null, itunesId: null, subscribable: false },
    ]);
    expect(found).toMatchObject({ source: 'itunes', notice: null });
    const req = fake.requests.find((r) => r.path === '/search')!;
    expect(req.query.get('media')).toBe('podcast');
    expect(req.query.get('term')).toBe('kitchen');
    expect((await s.member.get('/api/podcasts/search?q=')).status).toBe(400);
    fake.state.garbage = true;
    const bad = await s.member.get('/api/podcasts/search?q=kitchen');
    expect(bad.status).toBe(502);
    expect(bad.body.error.message).toMatch(/not a search result/);
  });

  it('follows a show privately and reads its episodes from the feed', async () => {
    const sub = await subscribe();
    expect(sub).toMatchObject({ title: 'Kitchen Table Talk', imageUrl: `/api/podcasts/subscriptions/${sub.id}/image` });
    expect((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/kitchen.xml` })).status).toBe(409);
    expect((await s.member.get('/api/podcasts/subscriptions')).body.subscriptions).toHaveLength(1);
    expect((await s.admin.get('/api/podcasts/subscriptions')).body.subscriptions).toEqual([]);

    const eps = EpisodesResponse.parse((await s.member.get(`/api/podcasts/subscriptions/${sub.id}/episodes`)).body).episodes;
    expect(eps.map((e) => [e.title, e.durationSec])).toEqual([
      ['Episode 2: Bread', 3723],
      ['Episode 1: Soup', 1832],
      ['Bonus: no guid', 95],
    ]);
    expect(eps[0]).toMatchObject({ audioType: 'audio/mpeg', audioLength: 123456, publishedAt: '2026-11-02T08:00:00.000Z', positionSec: 0, finished: false });
    expect(JSON.stringify(eps)).not.toContain('/audio/');

    expect((await s.admin.get(`/api/podcasts/subscriptions/${sub.id}/episodes`)).status).toBe(404);
    expect((await s.admin.delete(`/api/podcasts/subscriptions/${sub.id}`)).status).toBe(404);
    expect((await s.member.delete(`/api/podcasts/subscriptions/${sub.id}`)).status).toBe(204);
    expect((await s.member.get('/api/podcasts/subscriptions')).body.subscriptions).toEqual([]);
  });

  it('follows a show by its number in Apple’s directory (a search result’s itunesId)', async () => {
    const found = PodcastSearchResponse.parse((await s.member.get('/api/podcasts/search?q=kitchen table')).body).results[0]!;
    expect(found.itunesId).toBe(1500001);
    const r = await s.member.post('/api/podcasts/subscriptions', { itunesId: found.itunesId });
    expect(r.status).toBe(201);
    expect(SubscriptionResponse.parse(r.body).subscription).toMatchObject({ title: 'Kitchen Table Talk', feedUrl: `${fake.url}/feeds/kitchen.xml` });
    expect((await s.member.post('/api/podcasts/subscriptions', { itunesId: 1500001 })).status).toBe(409);
    const none = await s.member.post('/api/podcasts/subscriptions', { itunesId: 999 });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/no show with that number/);
    const noFeed = await s.member.post('/api/podcasts/subscriptions', { itunesId: 1500002 });
    expect(noFeed.status).toBe(422);
    expect(noFeed.body.error.message).toMatch(/no feed address/);
    for (const bad of [{}, { itunesId: 1500001, feedUrl: `${fake.url}/feeds/kitchen.xml` }, { itunesId: -1 }, { itunesId: 'x' }]) {
      const b = await s.member.post('/api/podcasts/subscriptions', bad);
      expect(b.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await s.anon.post('/api/podcasts/subscriptions', { itunesId: 1500001 })).status).toBe(401);
    const subs = (await s.member.get('/api/podcasts/subscriptions')).body.subscriptions as { id: string }[];
    expect(subs).toHaveLength(1);
    expect((await s.member.delete(`/api/podcasts/subscriptions/${subs[0]!.id}`)).status).toBe(204);
  });

  it('refuses what is not a feed, without keeping anything', async () => {
    for (const feedUrl of [`${fake.url}/feeds/broken.xml`, `${fake.url}/feeds/missing.xml`, `${fake.url}/feeds/slow.xml`, `${fake.url}/feeds/cut.xml`]) {
      const r = await s.member.post('/api/podcasts/subscriptions', { feedUrl });
      expect([400, 502]).toContain(r.status);
      expect(r.body.error.message).toMatch(/podcast/);
    }
    expect((await s.member.post('/api/podcasts/subscriptions', { feedUrl: 'not a url' })).status).toBe(400);
    expect((await s.member.post('/api/podcasts/subscriptions', { feedUrl: 'http://169.254.169.254/feed.xml' })).status).not.toBe(201);
    expect(await s.handle.deps.db('podcast_subscriptions').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('a refresh keeps new episodes once; the inbox holds those published after following, until finished', async () => {
    const sub = await subscribe();
    expect((await s.member.get('/api/podcasts/inbox')).body.episodes).toEqual([]);
    const future = new Date(Date.now() + 60_000).toUTCString();
    fake.state.extraItems = [item('ep-3', 'Episode 3: Pie', `${fake.url}/audio/ep3.mp3`, future, '600'), item(null, 'Repost', `${fake.url}/audio/ep1.mp3`, future, '10')];
    const eps = EpisodesResponse.parse((await s.member.post(`/api/podcasts/subscriptions/${sub.id}/refresh`)).body).episodes;
    expect(eps.map((e) => e.title)).toEqual(['Episode 3: Pie', 'Episode 2: Bread', 'Episode 1: Soup', 'Bonus: no guid']);
    await s.member.post(`/api/podcasts/subscriptions/${sub.id}/refresh`);
    const inbox = EpisodesResponse.parse((await s.member.get('/api/podcasts/inbox')).body).episodes;
    expect(inbox.map((e) => e.title)).toEqual(['Episode 3: Pie']);
    expect((await s.admin.get('/api/podcasts/inbox')).body.episodes).toEqual([]);

    const id = inbox[0]!.id;
    const t0 = '2026-12-03T10:00:00.000Z';
    const at = await s.member.put(`/api/podcasts/episodes/${id}/progress`, { positionSec: 120, durationSec: 600, updatedAt: t0 });
    expect(at.body.episode).toMatchObject({ positionSec: 120, finished: false });
    // an older report (another device, late) does not win
    const old = await s.member.put(`/api/podcasts/episodes/${id}/progress`, { positionSec: 5, durationSec: 600, updatedAt: '2026-12-03T09:00:00.000Z' });
    expect(old.body.episode).toMatchObject({ positionSec: 120 });
    // the place as read back (the video player resumes from it); another member's episode is not there
    expect((await s.member.get(`/api/podcasts/episodes/${id}`)).body.episode).toMatchObject({ id, positionSec: 120, finished: false });
    expect((await s.admin.get(`/api/podcasts/episodes/${id}`)).status).toBe(404);
    expect((await s.member.get('/api/podcasts/episodes/nope')).status).toBe(404);
    expect((await s.admin.put(`/api/podcasts/episodes/${id}/progress`, { positionSec: 1, durationSec: 600, updatedAt: '2026-12-03T11:00:00.000Z' })).status).toBe(404);
    expect((await s.member.put(`/api/podcasts/episodes/${id}/progress`, { positionSec: 'x', durationSec: 600, updatedAt: t0 })).status).toBe(400);
    const done = await s.member.put(`/api/podcasts/episodes/${id}/progress`, { positionSec: 571, durationSec: 600, updatedAt: '2026-12-03T10:30:00.000Z' });
    expect(done.body.episode).toMatchObject({ positionSec: 571, finished: true });
    expect((await s.member.get('/api/podcasts/inbox')).body.episodes).toEqual([]);
  });

  it('polls hourly with the validators (a 304 keeps everything), follows a 301 and itunes:new-feed-url, stops on 410', async () => {
    const sub = await subscribe();
    fake.requests.length = 0;
    expect(await s.handle.deps.podcasts.pollAll()).toBe(0);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ path: '/feeds/kitchen.xml', ifNoneMatch: '"v0"', ifModifiedSince: 'Mon, 02 Nov 2026 08:00:00 GMT' });
    expect(EpisodesResponse.parse((await s.member.get(`/api/podcasts/subscriptions/${sub.id}/episodes`)).body).episodes).toHaveLength(3);

    const moved = SubscriptionResponse.parse((await s.admin.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/old.xml` })).body).subscription;
    expect(moved.feedUrl).toBe(`${fake.url}/feeds/kitchen.xml`);
    // the member already follows the show at its new address
    expect((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/moving.xml` })).status).toBe(409);
    await s.member.delete(`/api/podcasts/subscriptions/${sub.id}`);
    const renamed = SubscriptionResponse.parse((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/moving.xml` })).body).subscription;
    expect(renamed.feedUrl).toBe(`${fake.url}/feeds/kitchen.xml`);

    const doomed = SubscriptionResponse.parse((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/gone.xml` })).body).subscription;
    fake.state.gone = true;
    await s.handle.deps.podcasts.pollAll();
    const after = (await s.member.get('/api/podcasts/subscriptions')).body.subscriptions as { id: string; stoppedAt: string | null }[];
    expect(after.find((m) => m.id === doomed.id)!.stoppedAt).not.toBeNull();
    fake.requests.length = 0;
    await s.handle.deps.podcasts.pollAll();
    expect(fake.requests.map((r) => r.path)).not.toContain('/feeds/gone.xml');
    expect(EpisodesResponse.parse((await s.member.get(`/api/podcasts/subscriptions/${doomed.id}/episodes`)).body).episodes).toHaveLength(3);
  });

  it('serves a show’s cover itself, fetched once; the feed’s image address is never answered', async () => {
    const sub = await subscribe();
    for (let i = 0; i < 2; i++) {
      const cover = await getBytes(s.url, s.member, `/api/podcasts/subscriptions/${sub.id}/image`);
      expect(cover.status).toBe(200);
      expect(cover.type).toBe('image/jpeg');
      expect(cover.bytes.equals(TINY_JPEG)).toBe(true);
    }
    expect(fake.requests.filter((r) => r.path === '/art.jpg')).toHaveLength(1);
    expect(JSON.stringify((await s.member.get('/api/podcasts/subscriptions')).body)).not.toContain('/art.jpg');
    expect((await s.admin.get(`/api/podcasts/subscriptions/${sub.id}/image`)).status).toBe(404);
    expect((await s.anon.get(`/api/podcasts/subscriptions/${sub.id}/image`)).status).toBe(401);
  });

  it('proxies the audio through the guard with Range passed on, following the analytics hop', async () => {
    const sub = await subscribe();
    const ep = EpisodesResponse.parse((await s.member.get(`/api/podcasts/subscriptions/${sub.id}/episodes`)).body).episodes[0]!;
    expect(ep.title).toBe('Episode 2: Bread'); // its enclosure is behind /stats/ (302)
    const whole = await fetch(`${s.url}/api/podcasts/episodes/${ep.id}/audio`, { headers: { cookie: s.member.cookie! } });
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(AUDIO)).toBe(true);
    const part = await fetch(`${s.url}/api/podcasts/episodes/${ep.id}/audio`, { headers: { cookie: s.member.cookie!, range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${AUDIO.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(AUDIO.subarray(100, 200))).toBe(true);
    expect(fake.requests.map((r) => r.path)).toContain('/stats/audio/ep2.mp3');
    expect((await s.admin.get(`/api/podcasts/episodes/${ep.id}/audio`)).status).toBe(404);
    expect((await s.anon.get(`/api/podcasts/episodes/${ep.id}/audio`)).status).toBe(401);
    await fake.down();
    expect((await s.member.get(`/api/podcasts/episodes/${ep.id}/audio`)).status).toBe(502);
    await fake.up();
  });

  it('imports and exports OPML per member', async () => {
    await subscribe();
    const opml = `<?xml version="1.0"?><opml version="2.0"><head/><body><outline text="Shows">` +
      `<outline text="Kitchen" xmlUrl="${fake.url}/feeds/kitchen.xml"/><outline text="Gone" xmlUrl="${fake.url}/feeds/missing.xml"/>` +
      `<outline text="Moving" xmlUrl="${fake.url}/feeds/gone.xml"/></outline></body></opml>`;
    const r = await fetch(`${s.url}/api/podcasts/opml`, { method: 'POST', headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'text/xml' }, body: opml });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { added: { feedUrl: string }[]; existing: number; failed: number };
    expect(body.added.map((a) => a.feedUrl)).toEqual([`${fake.url}/feeds/gone.xml`]);
    expect(body).toMatchObject({ existing: 1, failed: 1 });
    const bad = await fetch(`${s.url}/api/podcasts/opml`, { method: 'POST', headers: { cookie: s.member.cookie!, origin: s.url, 'content-type': 'text/xml' }, body: 'hello' });
    expect(bad.status).toBe(400);

    const out = await s.member.get('/api/podcasts/opml');
    expect(out.status).toBe(200);
    expect(out.headers['content-type']).toMatch(/x-opml/);
    expect(out.text).toContain(`xmlUrl="${fake.url}/feeds/kitchen.xml"`);
    expect(out.text).toContain(`xmlUrl="${fake.url}/feeds/gone.xml"`);
    expect((await s.admin.get('/api/podcasts/opml')).text).not.toContain('xmlUrl');
  });

  it('a show followed at two addresses, the old one moving onto the other: one copy stays, with the progress made on the old one', async () => {
    const kitchen = await subscribe();
    const old = SubscriptionResponse.parse((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/gone.xml` })).body).subscription;
    const oldEps = EpisodesResponse.parse((await s.member.get(`/api/podcasts/subscriptions/${old.id}/episodes`)).body).episodes;
    const listened = oldEps.find((e) => e.title === 'Episode 2: Bread')!;
    expect((await s.member.put(`/api/podcasts/episodes/${listened.id}/progress`, { positionSec: 120, durationSec: 600, updatedAt: new Date().toISOString() })).status).toBe(200);
    fake.state.announceMove = true;
    fake.state.extraItems = [item('ep-9', 'Episode 9', `${fake.url}/audio/ep9.mp3`, 'Tue, 03 Nov 2026 08:00:00 GMT', '60')]; // a new ETag
    expect(await s.handle.deps.podcasts.pollAll()).toBe(0);
    const mine = (await s.member.get('/api/podcasts/subscriptions')).body.subscriptions as { id: string }[];
    expect(mine.map((m) => m.id)).toEqual([kitchen.id]);
    const eps = EpisodesResponse.parse((await s.member.get(`/api/podcasts/subscriptions/${kitchen.id}/episodes`)).body).episodes;
    expect(eps.find((e) => e.title === 'Episode 2: Bread')).toMatchObject({ positionSec: 120, finished: false });
    expect((await s.member.get(`/api/podcasts/episodes/${listened.id}/audio`)).status).toBe(404);
  });

  it('a later poll that finds itunes:new-feed-url moves the subscription; a position past the end is refused', async () => {
    const sub = SubscriptionResponse.parse((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/gone.xml` })).body).subscription;
    fake.state.announceMove = true;
    fake.state.extraItems = [item('ep-9', 'Episode 9', `${fake.url}/audio/ep9.mp3`, 'Tue, 03 Nov 2026 08:00:00 GMT', '60')]; // a new ETag
    expect(await s.handle.deps.podcasts.pollAll()).toBe(0);
    const mine = (await s.member.get('/api/podcasts/subscriptions')).body.subscriptions as { id: string; feedUrl: string }[];
    expect(mine).toEqual([expect.objectContaining({ id: sub.id, feedUrl: `${fake.url}/feeds/kitchen.xml` })]);
    const eps = EpisodesResponse.parse((await s.member.get(`/api/podcasts/subscriptions/${sub.id}/episodes`)).body).episodes;
    expect(eps.map((e) => e.title)).toContain('Episode 9');
    const bad = await s.member.put(`/api/podcasts/episodes/${eps[0]!.id}/progress`, { positionSec: 700, durationSec: 600, updatedAt: new Date().toISOString() });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/past the end/);
  });
});
