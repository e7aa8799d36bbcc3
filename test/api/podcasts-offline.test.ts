// Podcasts offline (issue 35): an episode's offline copy fetched through the durable download queue
// (one file for two members, played with Range from the copy, removed when nobody wants it), a
// show's keep-newest rule (applied at once and after a poll; what it or the member removed is not
// fetched again), feed polls that honour Retry-After and back off on failures (a failing show is
// marked with its last error; a refresh still asks at once), a download that survives a restart,
// and OFFLINE_MODE: what is kept works, the rest is a 503 sentence. One data folder, three starts
// (online, restarted mid-download, offline); the tests run in order.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EpisodesResponse, SubscriptionResponse, type Episode, type Subscription } from '../../server/modules/podcasts/schema.js';
import { createManualClock } from '../../server/platform/clock.js';
import { FakeFileServer, makeContent } from '../fakes/file-server.js';
import { AUDIO, item, startFakePodcasts, type FakePodcasts } from '../fakes/podcasts.js';
import { TestClient } from '../harness/client.js';
import { until } from '../harness/net.js';
import { mintSession, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

describe('Podcasts offline', () => {
  let s: TestServer;
  let fake: FakePodcasts;
  let files: FakeFileServer;
  const temp = makeTempDir();
  const clock = createManualClock(new Date());
  let member: TestClient;
  let admin: TestClient;
  let ids: { admin: string; member: string };
  const BIG = makeContent(384 * 1024, 7);

  const start = async (opts: { offline?: boolean; seed?: 'household' | 'empty' } = {}) => {
    s = await startTestServer({
      seed: opts.seed ?? 'empty',
      dataDir: temp.dir,
      config: { itunesUrl: fake.url, fetchAllowOrigins: [fake.origin, files.url], offline: opts.offline ?? false },
      overrides: { clock, tuning: { todayFetchTimeoutMs: 1500 } },
    });
    if (opts.seed === 'household') ids = { admin: s.users.admin.id, member: s.users.member.id };
    member = new TestClient(s.url, await mintSession(s.handle, ids.member));
    admin = new TestClient(s.url, await mintSession(s.handle, ids.admin));
  };

  beforeAll(async () => {
    fake = await startFakePodcasts();
    files = await new FakeFileServer().start();
    await start({ seed: 'household' });
  });
  afterAll(async () => {
    await s.close();
    await fake.close();
    await files.close();
    temp.remove();
  });

  const follow = async (who: TestClient, feed = 'kitchen') => SubscriptionResponse.parse((await who.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/${feed}.xml` })).body).subscription;
  const episodes = async (who: TestClient, sub: Subscription) => EpisodesResponse.parse((await who.get(`/api/podcasts/subscriptions/${sub.id}/episodes`)).body).episodes;
  const byTitle = async (who: TestClient, sub: Subscription, title: string) => (await episodes(who, sub)).find((e) => e.title === title)!;
  const ready = (who: TestClient, sub: Subscription, title: string) =>
    until(async () => {
      const e = await byTitle(who, sub, title);
      return e.download?.state === 'ready' ? e : null;
    }, `${title} downloaded`);
  const audio = (who: TestClient, id: string, range?: string) => fetch(`${s.url}/api/podcasts/episodes/${id}/audio`, { headers: { cookie: who.cookie!, ...(range ? { range } : {}) } });
  const copiesOnDisk = () => (existsSync(path.join(temp.dir, 'podcasts')) ? readdirSync(path.join(temp.dir, 'podcasts')).filter((f) => !f.endsWith('.part') && !f.endsWith('.meta')) : []);
  const audioRequests = () => fake.requests.filter((r) => r.path.startsWith('/audio/') || r.path.startsWith('/stats/')).length;

  let memberShow: Subscription;
  let adminShow: Subscription;

  it('downloads an episode through the queue: one file for two members, played from the copy with Range, gone when nobody wants it', async () => {
    memberShow = await follow(member);
    adminShow = await follow(admin);
    const ep = await byTitle(member, memberShow, 'Episode 2: Bread');
    expect(ep.download).toBeNull();
    expect((await member.get('/api/podcasts/subscriptions')).body.offline).toBe(false);

    for (const [m, p] of [['post', 'download'], ['delete', 'download']] as const) expect((await s.anon[m](`/api/podcasts/episodes/${ep.id}/${p}`)).status).toBe(401);
    // another member's episode is not there for them
    expect((await admin.post(`/api/podcasts/episodes/${ep.id}/download`)).status).toBe(404);
    expect((await admin.delete(`/api/podcasts/episodes/${ep.id}/download`)).status).toBe(404);

    const asked = await member.post(`/api/podcasts/episodes/${ep.id}/download`);
    expect(asked.status).toBe(202);
    expect(['waiting', 'downloading', 'ready']).toContain(asked.body.episode.download.state);
    // it went through the household's queue
    const jobs = (await admin.get('/api/jobs/status')).body.jobs as { kind: string; label: string }[];
    expect(jobs.filter((j) => j.kind === 'podcast')).toHaveLength(1);
    expect(jobs[0]!.label).not.toContain('Bread'); // the admin's queue does not tell what a member listens to

    const done = await ready(member, memberShow, 'Episode 2: Bread');
    expect(done.download).toMatchObject({ state: 'ready', bytes: AUDIO.length });
    expect(copiesOnDisk()).toHaveLength(1);

    // played from the copy: the enclosure host is not asked
    const before = audioRequests();
    const part = await audio(member, ep.id, 'bytes=100-199');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${AUDIO.length}`);
    expect(part.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await part.arrayBuffer()).equals(AUDIO.subarray(100, 200))).toBe(true);
    const whole = await audio(member, ep.id);
    expect(Buffer.from(await whole.arrayBuffer()).equals(AUDIO)).toBe(true);
    expect((await audio(member, ep.id, 'bytes=999999-')).status).toBe(416);
    expect(audioRequests()).toBe(before);

    // the second member's copy is the same file, ready at once
    const adminEp = await byTitle(admin, adminShow, 'Episode 2: Bread');
    const again = await admin.post(`/api/podcasts/episodes/${adminEp.id}/download`);
    expect(again.status).toBe(200);
    expect(again.body.episode.download.state).toBe('ready');
    expect(copiesOnDisk()).toHaveLength(1);
    expect(audioRequests()).toBe(before);

    // the storage page counts the copies
    const areas = (await admin.get('/api/admin/storage')).body.areas as { key: string; bytes: number; files: number }[];
    expect(areas.find((a) => a.key === 'podcasts')).toMatchObject({ bytes: AUDIO.length, files: 1 });

    expect((await member.delete(`/api/podcasts/episodes/${ep.id}/download`)).status).toBe(204);
    expect((await byTitle(member, memberShow, 'Episode 2: Bread')).download).toBeNull();
    expect(copiesOnDisk()).toHaveLength(1); // the admin still has it
    expect((await admin.delete(`/api/podcasts/episodes/${adminEp.id}/download`)).status).toBe(204);
    expect(copiesOnDisk()).toHaveLength(0);
    // the member's audio is streamed again
    expect((await audio(member, ep.id)).status).toBe(200);
    expect(audioRequests()).toBeGreaterThan(before);
  });

  it('keeps the newest N: copies fetched at once and after a poll, older ones removed, and a removed one not fetched again', async () => {
    for (const bad of [{ keepNewest: 0 }, { keepNewest: 'x' }, { keepNewest: 101 }, { keepNewest: 2.5 }, {}, { keepNewest: 2, other: 1 }]) {
      const r = await member.patch(`/api/podcasts/subscriptions/${memberShow.id}`, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
    expect((await admin.patch(`/api/podcasts/subscriptions/${memberShow.id}`, { keepNewest: 2 })).status).toBe(404);
    // an old episode downloaded by hand, then keep the newest 2 (Bread's copy was removed by the member above)
    const bonus = await byTitle(member, memberShow, 'Bonus: no guid');
    await member.post(`/api/podcasts/episodes/${bonus.id}/download`);
    await ready(member, memberShow, 'Bonus: no guid');
    const patched = await member.patch(`/api/podcasts/subscriptions/${memberShow.id}`, { keepNewest: 2 });
    expect(patched.status).toBe(200);
    expect(patched.body.subscription.keepNewest).toBe(2);
    expect((await byTitle(member, memberShow, 'Bonus: no guid')).download).toBeNull();
    await ready(member, memberShow, 'Episode 1: Soup');
    expect((await byTitle(member, memberShow, 'Episode 2: Bread')).download).toBeNull();
    expect(copiesOnDisk()).toHaveLength(1);

    // a new episode: after the poll the newest two are Pie and Bread; Pie is fetched, Soup's copy goes
    fake.state.extraItems = [item('ep-3', 'Episode 3: Pie', `${fake.url}/audio/ep3.mp3`, new Date(clock.now().getTime() - 60_000).toUTCString(), '600')];
    await s.handle.deps.podcasts.pollAll();
    await ready(member, memberShow, 'Episode 3: Pie');
    expect((await byTitle(member, memberShow, 'Episode 1: Soup')).download).toBeNull();
    expect((await byTitle(member, memberShow, 'Episode 2: Bread')).download).toBeNull();
    expect(copiesOnDisk()).toHaveLength(1);

    // the member removes Pie's copy: the rule does not fetch it again
    const pie = await byTitle(member, memberShow, 'Episode 3: Pie');
    await member.delete(`/api/podcasts/episodes/${pie.id}/download`);
    await s.handle.deps.podcasts.pollAll();
    await member.patch(`/api/podcasts/subscriptions/${memberShow.id}`, { keepNewest: 2 });
    expect((await byTitle(member, memberShow, 'Episode 3: Pie')).download).toBeNull();
    expect(copiesOnDisk()).toHaveLength(0);
    // asked for by hand, they come back
    for (const e of [pie, await byTitle(member, memberShow, 'Episode 2: Bread')]) await member.post(`/api/podcasts/episodes/${e.id}/download`);
    await ready(member, memberShow, 'Episode 3: Pie');
    await ready(member, memberShow, 'Episode 2: Bread');

    const off = await member.patch(`/api/podcasts/subscriptions/${memberShow.id}`, { keepNewest: null });
    expect(off.body.subscription.keepNewest).toBeNull();
    expect((await episodes(member, memberShow)).filter((e) => e.download?.state === 'ready').map((e) => e.title)).toEqual(['Episode 3: Pie', 'Episode 2: Bread']);
  });

  it('polls honour Retry-After and back off while a feed fails; a show failing again and again is marked; a refresh still asks at once', async () => {
    const feedAsks = () => fake.requests.filter((r) => r.path === '/feeds/kitchen.xml').length;
    fake.state.feedFailure = { status: 500 };
    let asks = feedAsks();
    expect(await s.handle.deps.podcasts.pollAll()).toBe(1);
    expect(feedAsks()).toBe(asks + 1);
    // within the backoff nothing is asked
    await s.handle.deps.podcasts.pollAll();
    expect(feedAsks()).toBe(asks + 1);
    // failing again and again: the waits grow past the hourly poll
    for (let i = 0; i < 3; i++) {
      clock.advance(2 ** i * 60_000 + 1000);
      await s.handle.deps.podcasts.pollAll();
    }
    expect(feedAsks()).toBe(asks + 4);
    const marked = (await member.get('/api/podcasts/subscriptions')).body.subscriptions.find((x: Subscription) => x.id === memberShow.id) as Subscription;
    expect(marked.pollError).toMatchObject({ message: 'The source answered 500.', failures: 4 });
    expect(Date.parse(marked.pollError!.nextTryAt!)).toBeGreaterThan(clock.now().getTime() + 7 * 60_000);
    // the other member's view of the same feed says the same
    expect((await admin.get('/api/podcasts/subscriptions')).body.subscriptions[0].pollError).not.toBeNull();

    // a refresh asks now, backoff or not
    asks = feedAsks();
    const failed = await member.post(`/api/podcasts/subscriptions/${memberShow.id}/refresh`);
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toMatch(/feed could not be read/);
    expect(feedAsks()).toBe(asks + 1);

    // the host asks to wait two hours: neither the hourly poll nor a refresh asks before then
    fake.state.feedFailure = { status: 503, retryAfter: '7200' };
    clock.advance(25 * 60 * 60_000);
    await s.handle.deps.podcasts.pollAll();
    asks = feedAsks();
    clock.advance(60 * 60_000);
    await s.handle.deps.podcasts.pollAll();
    const wait = await member.post(`/api/podcasts/subscriptions/${memberShow.id}/refresh`);
    expect(wait.status).toBe(503);
    expect(wait.body.error.message).toMatch(/asked Hearth to wait/);
    expect(feedAsks()).toBe(asks);

    // back: the next poll after the wait reads it, and the mark goes
    fake.state.feedFailure = null;
    clock.advance(61 * 60_000);
    await s.handle.deps.podcasts.pollAll();
    expect(feedAsks()).toBe(asks + 1);
    const fine = (await member.get('/api/podcasts/subscriptions')).body.subscriptions.find((x: Subscription) => x.id === memberShow.id) as Subscription;
    expect(fine.pollError).toBeNull();
    expect((await member.post(`/api/podcasts/subscriptions/${memberShow.id}/refresh`)).status).toBe(200);
  });

  it('a download under way when Hearth stops finishes after the restart', { timeout: 60_000 }, async () => {
    const url = files.addBuffer('big.mp3', BIG, { throttleBps: 96 * 1024 });
    fake.state.extraItems = [item('ep-big', 'Long interview', url, new Date(clock.now().getTime() - 30_000).toUTCString(), '3600'), ...fake.state.extraItems]; // a new ETag
    expect((await member.post(`/api/podcasts/subscriptions/${memberShow.id}/refresh`)).status).toBe(200);
    const big = await byTitle(member, memberShow, 'Long interview');
    expect((await member.post(`/api/podcasts/episodes/${big.id}/download`)).status).toBe(202);
    await until(async () => {
      const e = await byTitle(member, memberShow, 'Long interview');
      return e.download?.state === 'downloading' && e.download.bytes! > 48 * 1024;
    }, 'part of the file downloaded');
    await s.close();
    const part = readdirSync(path.join(temp.dir, 'podcasts')).find((f) => f.endsWith('.part'));
    expect(statSync(path.join(temp.dir, 'podcasts', part!)).size).toBeGreaterThan(0);

    await start();
    const done = await ready(member, memberShow, 'Long interview');
    expect(done.download!.bytes).toBe(BIG.length);
    const got = Buffer.from(await (await audio(member, big.id)).arrayBuffer());
    expect(got.equals(BIG)).toBe(true);
    // the second start went on from the part on disk
    const asked = files.requests.filter((r) => r.path === 'big.mp3');
    expect(asked.at(-1)!.range).toMatch(/^bytes=[1-9]\d*-/);
  });

  it('in offline mode shows, episodes, progress, the inbox and downloaded episodes work; the rest is a 503 sentence', async () => {
    const soupBefore = await byTitle(member, memberShow, 'Episode 1: Soup');
    await s.close();
    await start({ offline: true });
    fake.requests.length = 0;

    const listed = await member.get('/api/podcasts/subscriptions');
    expect(listed.body.offline).toBe(true);
    expect((listed.body.subscriptions as Subscription[]).map((x) => x.id)).toEqual([memberShow.id]);
    const eps = await episodes(member, memberShow);
    expect(eps.map((e) => e.title)).toContain('Episode 1: Soup');
    const inbox = EpisodesResponse.parse((await member.get('/api/podcasts/inbox')).body).episodes;
    expect(inbox.map((e: Episode) => e.title)).toContain('Long interview');
    const saved = await member.put(`/api/podcasts/episodes/${soupBefore.id}/progress`, { positionSec: 42, durationSec: 1832, updatedAt: new Date(clock.now().getTime() + 1000).toISOString() });
    expect(saved.status).toBe(200);
    expect(saved.body.episode.positionSec).toBe(42);
    expect((await member.get('/api/podcasts/opml')).text).toContain('kitchen.xml');

    // a downloaded episode plays, with Range
    const bread = eps.find((e) => e.title === 'Episode 2: Bread')!;
    expect(bread.download?.state).toBe('ready');
    const part = await audio(member, bread.id, 'bytes=0-9');
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(AUDIO.subarray(0, 10))).toBe(true);
    // and a copy can be removed
    expect((await member.delete(`/api/podcasts/episodes/${bread.id}/download`)).status).toBe(204);
    expect((await member.patch(`/api/podcasts/subscriptions/${memberShow.id}`, { keepNewest: 1 })).status).toBe(200);

    const refusals = [
      await member.get('/api/podcasts/search?q=kitchen'),
      await member.post(`/api/podcasts/subscriptions/${memberShow.id}/refresh`),
      await member.get(`/api/podcasts/episodes/${soupBefore.id}/audio`),
      await member.post(`/api/podcasts/episodes/${soupBefore.id}/download`),
      await member.post('/api/podcasts/subscriptions', { feedUrl: `${fake.url}/feeds/moving.xml` }),
    ];
    for (const r of refusals) {
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('offline_mode');
      expect(r.body.error.message).toMatch(/^Hearth is in offline mode, so .+\./);
    }
    const opml = await fetch(`${s.url}/api/podcasts/opml`, { method: 'POST', headers: { cookie: member.cookie!, origin: s.url, 'content-type': 'text/xml' }, body: '<opml version="2.0"><body><outline xmlUrl="http://x.example/f.xml"/></body></opml>' });
    expect(opml.status).toBe(503);
    expect(await s.handle.deps.podcasts.pollAll()).toBe(0);
    expect(fake.requests).toEqual([]);
  });
});
