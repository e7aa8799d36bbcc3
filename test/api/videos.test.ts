// The video hub over HTTP against the fakes of test/fakes/videos.ts (YouTube channel pages and feeds,
// Invidious, Piped, PeerTube with a real MP4) and the podcast fake (a video episode): the household's
// channels (added by address, @handle or id; removed by the adder or an admin), OPML out and back in,
// the feed and its 2-hourly conditional poll (304 the second time), search refused until an admin
// sets an instance (Invidious first, Piped when Invidious hits its bot wall), the admin settings,
// the hub (a member's podcast videos are theirs alone), the PeerTube proxy with Range, the cache
// refusing YouTube and videos that are not licence-clean, serving copies with Range, evicting the
// least recently watched under the cap, and offline mode (the copies play, the rest is refused).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionResponse } from '../../server/modules/podcasts/schema.js';
import { ChannelResponse, FeedResponse, HubResponse, SearchResponse, VstreamListResponse, VstreamStartResponse } from '../../server/modules/videos/schema.js';
import { item, startFakePodcasts, type FakePodcasts } from '../fakes/podcasts.js';
import { GARDEN_CHANNEL, KITCHEN_CHANNEL, PT_CC, PT_RESERVED, startFakeVideoWorld, UNKNOWN_CHANNEL, type FakeVideoWorld } from '../fakes/videos.js';
import { TestClient } from '../harness/client.js';
import { until } from '../harness/net.js';
import { mintSession, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('Video hub', () => {
  let s: TestServer;
  let w: FakeVideoWorld;
  let pods: FakePodcasts;
  const temp = makeTempDir();
  const config = () => ({ youtubeFeedsUrl: w.youtube.url, fetchAllowOrigins: [...w.origins, pods.origin] });

  beforeAll(async () => {
    w = await startFakeVideoWorld();
    pods = await startFakePodcasts();
    s = await startTestServer({ seed: 'household', dataDir: temp.dir, config: config(), overrides: { tuning: { todayFetchTimeoutMs: 1500 } } });
  });
  afterAll(async () => {
    await s.close();
    await w.close();
    await pods.close();
    temp.remove();
  });

  const ranged = async (client: TestClient, path: string, range?: string) => {
    const res = await fetch(`${s.url}${path}`, { headers: { cookie: client.cookie!, ...(range ? { range } : {}) } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const instance = () => w.peertube.url;

  it('guards every route: anonymous 401, a member 403 on the admin settings', async () => {
    for (const path of ['/api/youtube/channels', '/api/youtube/feed', '/api/youtube/opml', '/api/youtube/search?q=x', '/api/videos', '/api/vstream', '/api/vstream/x', '/api/admin/videos', `/api/videos/podcast/x/stream`]) {
      expect((await s.anon.get(path)).status, path).toBe(401);
    }
    expect((await s.anon.post('/api/youtube/channels', { channelId: KITCHEN_CHANNEL })).status).toBe(401);
    expect((await s.anon.delete('/api/youtube/channels/x')).status).toBe(401);
    expect((await s.anon.post('/api/vstream', { source: 'peertube', id: PT_CC[0] })).status).toBe(401);
    expect((await s.member.get('/api/admin/videos')).status).toBe(403);
    expect((await s.member.put('/api/admin/videos', { invidiousUrl: w.invidious.url })).status).toBe(403);
  });

  it('follows channels by address, @handle or id for the household; refuses what is not one', async () => {
    const byUrl = await s.member.post('/api/youtube/channels', { url: `https://www.youtube.com/@kitchen` });
    // the member typed youtube.com: Hearth reads the page from YOUTUBE_FEEDS_BASE (the fake), never another host
    expect(byUrl.status).toBe(201);
    expect(ChannelResponse.parse(byUrl.body).channel).toMatchObject({ channelId: KITCHEN_CHANNEL, title: 'Kitchen Channel', addedBy: 'Sam', canRemove: true });
    expect(w.youtube.requests.some((r) => r.path === '/@kitchen')).toBe(true);
    const again = await s.admin.post('/api/youtube/channels', { channelId: KITCHEN_CHANNEL });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('already_followed');

    expect((await s.admin.post('/api/youtube/channels', { url: '@garden' })).status).toBe(201);
    for (const [body, status, code] of [
      [{ url: '@plain' }, 422, 'not_a_channel'],
      [{ url: '@nobody' }, 422, 'unknown_channel'],
      [{ channelId: UNKNOWN_CHANNEL }, 422, 'unknown_channel'],
      [{ url: 'https://example.com/@kitchen' }, 400, 'invalid_request'],
      [{ url: 'https://www.youtube.com/' }, 400, 'invalid_request'],
      [{ channelId: 'nope' }, 400, 'invalid_request'],
      [{}, 400, 'invalid_request'],
      [{ url: '@kitchen', channelId: KITCHEN_CHANNEL }, 400, 'invalid_request'],
    ] as const) {
      const r = await s.member.post('/api/youtube/channels', body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.message).toMatch(/\w+ \w+/);
    }
    // YouTube down: a sentence, nothing kept
    await w.youtube.setMode('down');
    const down = await s.member.post('/api/youtube/channels', { url: 'https://m.youtube.com/@somebody' });
    expect(down.status).toBe(503);
    expect(down.body.error.message).toMatch(/could not be reached/);
    await w.youtube.setMode('ok');
    const list = (await s.member.get('/api/youtube/channels')).body.channels as { id: string; title: string; canRemove: boolean }[];
    expect(list.map((c) => [c.title, c.canRemove])).toEqual([
      ['Garden Channel', false],
      ['Kitchen Channel', true],
    ]);
    // the member may not remove the admin's channel; unknown ids are 404
    const r403 = await s.member.delete(`/api/youtube/channels/${list[0]!.id}`);
    expect(r403.status).toBe(403);
    expect(r403.body.error.message).toMatch(/who added/);
    expect((await s.member.delete('/api/youtube/channels/nope')).status).toBe(404);
  });

  it('lists the channels’ uploads newest first, with pictures served by Hearth', async () => {
    const feed = FeedResponse.parse((await s.member.get('/api/youtube/feed')).body);
    expect(feed.videos.map((v) => v.sourceId)).toEqual(['kitchVid002', 'gardnVid001', 'kitchVid001']);
    expect(feed.videos[0]).toMatchObject({ source: 'youtube', channel: 'Kitchen Channel', embedUrl: 'https://www.youtube-nocookie.com/embed/kitchVid002', streamUrl: null, cacheable: false, thumbnailUrl: '/api/youtube/thumbnails/kitchVid002' });
    const pic = await ranged(s.member, '/api/youtube/thumbnails/kitchVid002');
    expect(pic.status).toBe(200);
    expect(pic.headers.get('content-type')).toBe('image/jpeg');
    expect((await s.member.get('/api/youtube/thumbnails/zzzzzzzzzzz')).status).toBe(404);
  });

  it('polls every followed feed every 2 h with its validators: the second poll is a 304', async () => {
    const task = s.handle.deps.modules.find((m) => m.name === 'videos')!.tasks!.find((t) => t.name === 'videos.youtube-poll')!;
    expect(task.everyMs).toBe(2 * 60 * 60_000);
    w.youtube.conditional.length = 0;
    await task.run();
    await task.run();
    expect(w.youtube.conditional).toEqual([`"${GARDEN_CHANNEL}-v1"`, `"${KITCHEN_CHANNEL}-v1"`, `"${GARDEN_CHANNEL}-v1"`, `"${KITCHEN_CHANNEL}-v1"`]);
    // a garbage answer keeps the last good copy
    await w.youtube.setMode('garbage');
    await task.run();
    await w.youtube.setMode('ok');
    expect(FeedResponse.parse((await s.member.get('/api/youtube/feed')).body).videos).toHaveLength(3);
  });

  it('OPML: the household’s channels out and back in', async () => {
    const out = await s.member.get('/api/youtube/opml');
    expect(out.status).toBe(200);
    expect(out.headers['content-type']).toMatch(/text\/x-opml/);
    expect(out.text).toContain(`xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${KITCHEN_CHANNEL}"`);
    const again = await s.member.post('/api/youtube/opml', undefined, { raw: out.text, headers: { 'content-type': 'text/xml' } });
    expect(again.body).toEqual({ added: [], existing: 2, failed: 0 });
    for (const c of (await s.admin.get('/api/youtube/channels')).body.channels as { id: string }[]) expect((await s.admin.delete(`/api/youtube/channels/${c.id}`)).status).toBe(204);
    const opml = out.text.replace('</body>', `<outline text="Not YouTube" xmlUrl="https://example.com/feed.xml"/><outline text="Gone" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${UNKNOWN_CHANNEL}"/></body>`);
    const back = await s.member.post('/api/youtube/opml', undefined, { raw: opml, headers: { 'content-type': 'text/xml' } });
    expect(back.status).toBe(200);
    expect(back.body.added.map((c: { channelId: string }) => c.channelId).sort()).toEqual([GARDEN_CHANNEL, KITCHEN_CHANNEL]);
    expect(back.body).toMatchObject({ existing: 0, failed: 2 });
    expect((await s.member.post('/api/youtube/opml', undefined, { raw: '<html>no</html>', headers: { 'content-type': 'text/xml' } })).status).toBe(400);
    expect((await s.member.post('/api/youtube/opml', { x: 1 })).status).toBe(400);
  });

  it('search is refused until an admin sets an instance; Invidious first, Piped when it fails', async () => {
    const refused = await s.member.get('/api/youtube/search?q=bread');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'search_not_configured' });
    expect(refused.body.error.message).toMatch(/admin adds one in Admin, Videos/);

    expect((await s.admin.put('/api/admin/videos', { invidiousUrl: 'http://10.0.0.5' })).body.error.code).toBe('address_refused');
    expect((await s.admin.put('/api/admin/videos', { invidiousUrl: 'not a url' })).status).toBe(400);
    expect((await s.admin.put('/api/admin/videos', { vstreamCapBytes: -1 })).status).toBe(400);
    expect((await s.admin.put('/api/admin/videos', { surprise: true })).status).toBe(400);
    const set = await s.admin.put('/api/admin/videos', { invidiousUrl: `${w.invidious.url}/`, pipedUrl: w.piped.url });
    expect(set.status).toBe(200);
    expect(set.body.settings).toMatchObject({ invidiousUrl: w.invidious.url, pipedUrl: w.piped.url, peertubeUrls: [] });
    expect((await s.admin.get('/api/admin/videos')).body.settings.invidiousUrl).toBe(w.invidious.url);

    const found = SearchResponse.parse((await s.member.get('/api/youtube/search?q=bread')).body);
    expect(found).toMatchObject({ instance: 'invidious', results: [{ sourceId: 'invidVid001', title: 'Invidious: bread', embedUrl: 'https://www.youtube-nocookie.com/embed/invidVid001', durationSec: 321 }] });
    await w.invidious.setMode('botwall');
    const fallback = SearchResponse.parse((await s.member.get('/api/youtube/search?q=soup')).body);
    expect(fallback).toMatchObject({ instance: 'piped', results: [{ sourceId: 'pipedVid001', title: 'Piped: soup', durationSec: 95 }] });
    await w.piped.setMode('down');
    const down = await s.member.get('/api/youtube/search?q=pie');
    expect(down.status).toBe(503);
    expect(down.body.error.message).toMatch(/did not answer/);
    await w.piped.setMode('slow', { slowMs: 5000 });
    expect((await s.member.get('/api/youtube/search?q=cake')).status).toBe(503);
    await w.piped.setMode('ok');
    await w.invidious.setMode('ok');
    expect((await s.member.get('/api/youtube/search?q=')).status).toBe(400);
  });

  it('the hub: channels, the listed PeerTube instances and the caller’s own podcast videos', async () => {
    expect((await s.admin.put('/api/admin/videos', { peertubeUrls: [w.peertube.url] })).status).toBe(200);
    pods.state.extraItems = [item('vid-1', 'Video episode', `${w.peertube.url}/static/web-videos/${PT_CC[0]}-240.mp4`, 'Sun, 29 Nov 2026 08:00:00 GMT', '1').replace('audio/mpeg', 'video/mp4')];
    expect(SubscriptionResponse.safeParse((await s.member.post('/api/podcasts/subscriptions', { feedUrl: `${pods.url}/feeds/kitchen.xml` })).body).success).toBe(true);

    const hub = HubResponse.parse((await s.member.get('/api/videos')).body);
    expect(hub.searchConfigured).toBe(true);
    expect(hub.notices).toEqual([]);
    expect(hub.freshness).toMatchObject({ stale: false });
    expect(hub.offline).toBe(false);
    expect(hub.videos.map((v) => v.source)).toEqual(expect.arrayContaining(['youtube', 'peertube', 'podcast']));
    const episode = hub.videos.find((v) => v.source === 'podcast')!;
    expect(episode).toMatchObject({ title: 'Video episode', channel: 'Kitchen Table Talk', cacheable: true, streamUrl: `/api/videos/podcast/${episode.sourceId}/stream` });
    const cc = hub.videos.find((v) => v.sourceId === PT_CC[2])!;
    expect(cc).toMatchObject({ source: 'peertube', licence: 'Public Domain Dedication', cacheable: true, instance: w.peertube.url });
    expect(hub.videos.find((v) => v.sourceId === PT_RESERVED)).toMatchObject({ cacheable: false, licence: 'Unknown' });
    // the member's podcasts are theirs: the admin's hub has no episode, and its stream is 404 to them
    const adminHub = HubResponse.parse((await s.admin.get('/api/videos')).body);
    expect(adminHub.videos.some((v) => v.source === 'podcast')).toBe(false);
    expect((await s.admin.get(episode.streamUrl!)).status).toBe(404);

    // played through Hearth with the player's Range
    const part = await ranged(s.member, cc.streamUrl!, 'bytes=0-99');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${w.clip.length}`);
    expect(part.bytes.equals(w.clip.subarray(0, 100))).toBe(true);
    const whole = await ranged(s.member, episode.streamUrl!);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.bytes.equals(w.clip)).toBe(true);
    expect((await ranged(s.member, `/api/videos/peertube/${PT_CC[0]}/stream?instance=${encodeURIComponent('https://other.example')}`)).status).toBe(404);
    expect((await ranged(s.member, cc.thumbnailUrl!)).headers.get('content-type')).toBe('image/jpeg');

    // an instance that is down is a sentence, the rest still listed
    await w.peertube.setMode('garbage');
    await s.admin.put('/api/admin/videos', { peertubeUrls: [w.peertube.url, w.invidious.url] });
    const partial = HubResponse.parse((await s.member.get('/api/videos')).body);
    expect(partial.notices).toEqual([`The PeerTube instance ${new URL(w.invidious.url).host} could not be reached; its videos are left out for now.`]);
    await w.peertube.setMode('ok');
    await s.admin.put('/api/admin/videos', { peertubeUrls: [w.peertube.url] });
  });

  it('the cache keeps only licence-clean videos, serves them with Range and evicts the least recently watched', async () => {
    const yt = await s.member.post('/api/vstream', { source: 'youtube', id: 'kitchVid001' });
    expect(yt.status).toBe(422);
    expect(yt.body.error).toMatchObject({ code: 'not_cacheable' });
    expect(yt.body.error.message).toMatch(/YouTube’s terms/);
    const reserved = await s.member.post('/api/vstream', { source: 'peertube', id: PT_RESERVED, instance: instance() });
    expect(reserved.status).toBe(422);
    expect(reserved.body.error.message).toMatch(/licence \(Unknown\)/);
    expect((await s.member.post('/api/vstream', { source: 'peertube', id: '0a1b2c3d-0000-4000-8000-0000000000aa', instance: instance() })).status).toBe(404);
    expect((await s.member.post('/api/vstream', { source: 'elsewhere', id: 'x' })).status).toBe(400);
    expect((await s.member.post('/api/vstream', { source: 'podcast', id: 'not-mine' })).status).toBe(404);
    expect((await s.member.get('/api/vstream')).body.entries).toEqual([]);

    // room for two copies
    await s.admin.put('/api/admin/videos', { vstreamCapBytes: Math.floor(w.clip.length * 2.5) });
    const ready = async (id: string) => until(async () => (VstreamListResponse.parse((await s.member.get('/api/vstream')).body).entries.find((e) => e.id === id)?.state === 'ready' ? true : null), `copy ${id} ready`);
    const first = VstreamStartResponse.parse((await s.member.post('/api/vstream', { source: 'peertube', id: PT_CC[0] })).body);
    expect(first.state).toBe('queued');
    await ready(first.id);
    // the same video again is the same copy
    expect((await s.admin.post('/api/vstream', { source: 'peertube', id: PT_CC[0], instance: instance() })).body).toEqual({ id: first.id, state: 'ready' });
    const jobs = (await s.admin.get('/api/jobs/status')).body.jobs as { kind: string; hostClass: string; state: string }[];
    expect(jobs.find((j) => j.kind === 'video')).toMatchObject({ hostClass: 'media', state: 'completed' });

    const whole = await ranged(s.member, `/api/vstream/${first.id}`);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(w.clip)).toBe(true);
    const tail = await ranged(s.admin, `/api/vstream/${first.id}`, 'bytes=100-');
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(w.clip.subarray(100))).toBe(true);

    // a podcast episode's copy is its member's
    const episode = HubResponse.parse((await s.member.get('/api/videos')).body).videos.find((v) => v.source === 'podcast')!;
    const mine = VstreamStartResponse.parse((await s.member.post('/api/vstream', { source: 'podcast', id: episode.sourceId })).body);
    await ready(mine.id);
    expect((await s.admin.get(`/api/vstream/${mine.id}`)).status).toBe(404);
    expect((await s.admin.get('/api/vstream')).body.entries.map((e: { id: string }) => e.id)).toEqual([first.id]);
    expect(HubResponse.parse((await s.member.get('/api/videos')).body).cached.map((e) => e.id).sort()).toEqual([first.id, mine.id].sort());

    // watched: the first is now the most recent; the podcast copy is the least recently watched
    await new Promise((r) => setTimeout(r, 5));
    await ranged(s.member, `/api/vstream/${first.id}`, 'bytes=0-1');
    const third = VstreamStartResponse.parse((await s.member.post('/api/vstream', { source: 'peertube', id: PT_CC[1], instance: instance() })).body);
    await ready(third.id);
    const left = VstreamListResponse.parse((await s.member.get('/api/vstream')).body);
    expect(left.entries.map((e) => e.id).sort()).toEqual([first.id, third.id].sort());
    expect(left.usedBytes).toBeLessThanOrEqual(left.capBytes);
    const gone = await s.member.get(`/api/vstream/${mine.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toMatch(/made room/);

    // a copy larger than the whole cache is refused before anything is fetched
    await s.admin.put('/api/admin/videos', { vstreamCapBytes: 10 });
    expect((await s.member.get('/api/vstream')).body.entries).toEqual([]);
    const big = await s.member.post('/api/vstream', { source: 'peertube', id: PT_CC[2], instance: instance() });
    expect(big.status).toBe(422);
    expect(big.body.error.code).toBe('too_large_for_cache');
    await s.admin.put('/api/admin/videos', { vstreamCapBytes: w.clip.length * 4 });
    const kept = VstreamStartResponse.parse((await s.member.post('/api/vstream', { source: 'peertube', id: PT_CC[2], instance: instance() })).body);
    await ready(kept.id);
  });

  it('a copy waits in the paused queue; one cancelled there says so, and saving it again starts a new copy', async () => {
    expect((await s.admin.post('/api/admin/queue/pause')).status).toBe(200);
    const started = VstreamStartResponse.parse((await s.member.post('/api/vstream', { source: 'peertube', id: PT_CC[0], instance: instance() })).body);
    const entry = async (id: string) => VstreamListResponse.parse((await s.member.get('/api/vstream')).body).entries.find((e) => e.id === id);
    expect(await entry(started.id)).toMatchObject({ state: 'queued', streamUrl: null });
    expect((await s.member.get(`/api/vstream/${started.id}`)).status).toBe(409);
    const job = ((await s.admin.get('/api/jobs/status')).body.jobs as { id: string; kind: string; state: string }[]).find((j) => j.kind === 'video' && j.state === 'pending')!;
    expect((await s.admin.post(`/api/jobs/${job.id}/cancel`)).status).toBe(200);
    expect(await entry(started.id)).toMatchObject({ state: 'failed' });
    expect((await s.admin.post('/api/admin/queue/resume')).status).toBe(200);
    const again = VstreamStartResponse.parse((await s.member.post('/api/vstream', { source: 'peertube', id: PT_CC[0], instance: instance() })).body);
    expect(again.id).not.toBe(started.id);
    expect(await entry(started.id)).toBeUndefined();
    await until(async () => ((await entry(again.id))?.state === 'ready' ? true : null), 'the copy saved again');
  });

  it('a member’s podcast copies go with the member', async () => {
    const made = await s.admin.post('/api/admin/users', { name: 'Robin', pin: '2468', role: 'member' });
    expect(made.status).toBe(201);
    const robin = new TestClient(s.url, await mintSession(s.handle, made.body.user.id));
    expect((await robin.post('/api/podcasts/subscriptions', { feedUrl: `${pods.url}/feeds/kitchen.xml` })).status).toBe(201);
    const episode = HubResponse.parse((await robin.get('/api/videos')).body).videos.find((v) => v.source === 'podcast')!;
    const copy = VstreamStartResponse.parse((await robin.post('/api/vstream', { source: 'podcast', id: episode.sourceId })).body);
    await until(async () => (VstreamListResponse.parse((await robin.get('/api/vstream')).body).entries.find((e) => e.id === copy.id)?.state === 'ready' ? true : null), 'Robin’s copy');
    const file = path.join(temp.dir, 'vstream', `${copy.id}.mp4`);
    expect(existsSync(file)).toBe(true);
    expect((await s.admin.delete(`/api/admin/users/${made.body.user.id}`)).status).toBe(200);
    await until(() => !existsSync(file), 'the copy’s file removed');
  });

  it('offline mode: cached copies play and lists answer from their copies; everything outside is refused with a sentence', async () => {
    const cached = VstreamListResponse.parse((await s.member.get('/api/vstream')).body).entries[0]!;
    const memberId = s.users.member.id;
    await s.close();
    s = await startTestServer({ dataDir: temp.dir, config: { ...config(), offline: true }, overrides: { tuning: { todayFetchTimeoutMs: 1500 } } });
    const member = new TestClient(s.url, await mintSession(s.handle, memberId));
    const played = await ranged(member, `/api/vstream/${cached.id}`, 'bytes=0-9');
    expect(played.status).toBe(206);
    // a copy kept before answers as it is (nothing to fetch)
    expect((await member.post('/api/vstream', { source: cached.source, id: cached.sourceId, instance: instance() })).body).toEqual({ id: cached.id, state: 'ready' });
    const hub = HubResponse.parse((await member.get('/api/videos')).body);
    expect(hub.cached.map((e) => e.id)).toContain(cached.id);
    expect(hub.offline).toBe(true);
    expect(hub.videos.filter((v) => v.source === 'youtube')).toHaveLength(3);
    expect((await member.get('/api/youtube/channels')).body.channels).toHaveLength(2);
    for (const r of [
      await member.get('/api/youtube/search?q=bread'),
      await member.post('/api/youtube/channels', { url: '@kitchen' }),
      await member.post('/api/vstream', { source: 'peertube', id: PT_CC[1], instance: instance() }),
      await member.get(`/api/videos/peertube/${PT_CC[0]}/stream?instance=${encodeURIComponent(instance())}`),
    ]) {
      expect(r.status).toBe(503);
      expect(r.body.error.message).toMatch(/offline mode/);
    }
  });
});
