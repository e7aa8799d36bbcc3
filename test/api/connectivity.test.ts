// Admin › Connectivity and offline mode as a household setting (issue 39): an admin's switch stops
// every outbound path at once (each fake origin sees no request after it, the guard's own DNS lookup
// refuses), refusals say an admin switched it on, it survives a restart, OFFLINE_MODE forces it on
// (and the admin cannot switch it off), and the overview never checks the internet in offline mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectivityResponse, ConnectivityStatusResponse } from '../../server/modules/connectivity/schema.js';
import { OfflineModeError } from '../../server/platform/ssrf.js';
import { FakeFileServer } from '../fakes/file-server.js';
import { startFakeTelegram, TELEGRAM_TOKEN, type FakeTelegram } from '../fakes/notify.js';
import { startModalFake, sendText, type ModalFake } from '../fakes/modal-http.js';
import { startFakeOpenFoodFacts, type FakeOpenFoodFacts } from '../fakes/open-food-facts.js';
import { startFakeOpenMeteo, type FakeOpenMeteo } from '../fakes/open-meteo.js';
import { startFakePodcasts, type FakePodcasts } from '../fakes/podcasts.js';
import { until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const NUTELLA = '3017620422003';
const ADMIN_SWITCHED = /An admin switched offline mode on in Admin › Connectivity/;

describe('offline mode switched by an admin', () => {
  const temp = makeTempDir();
  let s: TestServer;
  let meteo: FakeOpenMeteo;
  let off: FakeOpenFoodFacts;
  let pods: FakePodcasts;
  let files: FakeFileServer;
  let internet: ModalFake<'ok'>;
  const config = () => ({
    openMeteoUrl: meteo.url,
    openMeteoGeoUrl: meteo.url,
    openFoodFactsUrl: off.url,
    itunesUrl: pods.url,
    connectivityCheckUrl: `${internet.url}/success.txt`,
    fetchAllowOrigins: [meteo.origin, off.origin, pods.origin, files.url, internet.origin],
  });

  beforeAll(async () => {
    [meteo, off, pods, files, internet] = await Promise.all([
      startFakeOpenMeteo(),
      startFakeOpenFoodFacts(),
      startFakePodcasts(),
      new FakeFileServer().start(),
      startModalFake<'ok'>((_mode, _req, res) => sendText(res, 200, 'text/plain', 'success\n')),
    ]);
    s = await startTestServer({ seed: 'household', dataDir: temp.dir, config: config() });
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([meteo.close(), off.close(), pods.close(), files.close(), internet.close()]);
    temp.remove();
  });

  it('answers 401 anonymous and 403 to a member on the admin routes; bad input is a 400 sentence', async () => {
    expect((await s.anon.get('/api/admin/connectivity')).status).toBe(401);
    expect((await s.anon.get('/api/connectivity')).status).toBe(401);
    expect((await s.member.get('/api/admin/connectivity')).status).toBe(403);
    expect((await s.member.put('/api/admin/connectivity', { offlineMode: true })).status).toBe(403);
    expect(s.handle.deps.offline.isOn()).toBe(false);
    for (const body of [{}, { offlineMode: 'yes' }, { offlineMode: true, extra: 1 }]) {
      const r = await s.admin.put('/api/admin/connectivity', body);
      expect(r.status).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
  });

  it('shows the addresses, one internet check kept briefly, the sources used and the switch', async () => {
    // the sources below have been used once, online
    await s.admin.put('/api/admin/briefing/location', { name: 'Harbourton', lat: 48.14, lon: 11.58 });
    expect((await s.member.get('/api/weather')).status).toBe(200);
    expect((await s.member.get(`/api/lookup/barcode/${NUTELLA}`)).status).toBe(200);

    internet.requests.length = 0;
    const r = await s.admin.get('/api/admin/connectivity');
    expect(r.status).toBe(200);
    const body = ConnectivityResponse.parse(r.body);
    // HOST is 127.0.0.1 in tests: no other device can reach this Hearth, and it says so
    expect(body.reach).toBe('loopback');
    expect(body.host).toBe('127.0.0.1');
    expect(body.internet).toMatchObject({ status: 'reachable', host: new URL(internet.url).host, message: null });
    expect(body.offlineMode).toEqual({ on: false, reason: null, message: null, locked: false });
    expect(body.sources.find((x) => x.name === 'Weather (Today)')).toMatchObject({ lastSuccessAt: expect.any(String), lastError: null });
    // a second look within the minute asks nobody again
    await s.admin.get('/api/admin/connectivity');
    expect(internet.requests.filter((q) => q.path === '/success.txt')).toHaveLength(1);
    expect(ConnectivityStatusResponse.parse((await s.member.get('/api/connectivity')).body)).toEqual({ offlineMode: { on: false, reason: null, message: null } });
  });

  it('an admin switching it on stops every outbound path at once, and each refusal says an admin did', async () => {
    const before = { meteo: meteo.requests.length, off: off.requests.length, pods: pods.requests.length, files: files.requests.length, internet: internet.requests.length };
    const put = await s.admin.put('/api/admin/connectivity', { offlineMode: true });
    expect(put.status).toBe(200);
    const state = ConnectivityResponse.parse(put.body);
    expect(state.offlineMode).toMatchObject({ on: true, reason: 'admin', locked: false, message: expect.stringMatching(ADMIN_SWITCHED) });
    // no internet check in offline mode
    expect(state.internet).toMatchObject({ status: 'offline', checkedAt: null });

    // Today: a new place's forecast is not fetched (no copy: 503), nor is a forced refresh
    await s.admin.put('/api/admin/briefing/location', { name: 'Hillford', lat: 59.91, lon: 10.75 });
    expect((await s.member.get('/api/weather')).status).toBe(503);
    expect((await s.admin.post('/api/admin/briefing/refresh', { source: 'weather' })).body).toMatchObject({ outcome: 'skipped' });
    // Reader: saving a web page and probing it are refused before any request
    const page = files.addBuffer('article.html', Buffer.from('<html><body><p>hello</p></body></html>'));
    const saved = await s.member.post('/api/reader', { url: page, type: 'offline' });
    expect(saved.status).toBe(503);
    expect(saved.body.error).toMatchObject({ code: 'offline_mode', message: expect.stringMatching(ADMIN_SWITCHED) });
    expect((await s.member.get(`/api/reader/probe?url=${encodeURIComponent(page)}`)).status).toBe(503);
    // a barcode Hearth never looked up: 503 with the sentence; one it has still answers from its copy
    const unknown = await s.member.get('/api/lookup/barcode/7610200337405');
    expect(unknown.status).toBe(503);
    expect(unknown.body.error.message).toMatch(ADMIN_SWITCHED);
    expect((await s.member.get(`/api/lookup/barcode/${NUTELLA}`)).status).toBe(200);
    // podcasts: the directory search
    const search = await s.member.get('/api/podcasts/search?q=kitchen');
    expect(search.status).toBe(503);
    expect(search.body.error).toMatchObject({ code: 'offline_mode', message: expect.stringMatching(ADMIN_SWITCHED) });
    // the other media hubs: the TV guide, films and a new YouTube channel, each with who switched it on
    for (const r of [
      await s.member.get('/api/shows/search?q=harbor'),
      await s.member.get('/api/movies/search?q=harbor'),
      await s.member.post('/api/youtube/channels', { channelId: 'UCabcdefghijklmnopqrstuv' }),
    ]) {
      expect(r.status).toBe(503);
      expect(r.body.error.message).toMatch(ADMIN_SWITCHED);
    }
    // a download the admin queues
    const job = await s.admin.post('/api/admin/queue/jobs', { jobs: [{ kind: 'component', target: `${files.url}/x.bin`, destination: 'x.bin', label: 'X', hostClass: 'code_host' }] });
    expect(job.status).toBe(503);
    expect(job.body.error.message).toMatch(ADMIN_SWITCHED);
    // the overview again: still no internet check
    await s.admin.get('/api/admin/connectivity');

    expect({ meteo: meteo.requests.length, off: off.requests.length, pods: pods.requests.length, files: files.requests.length, internet: internet.requests.length }).toEqual(before);
    // the guard itself: a URL and the socket-level DNS lookup are both refused, with the admin's sentence
    expect(() => s.handle.deps.guard.checkUrl('https://example.com/')).toThrow(ADMIN_SWITCHED);
    const err = await new Promise<unknown>((resolve) => s.handle.deps.guard.lookup('example.com', {}, (e) => resolve(e)));
    expect(err).toBeInstanceOf(OfflineModeError);
    expect(s.handle.deps.guard.workerOptions).toMatchObject({ offline: true, offlineReason: 'admin' });
    // every member's pages learn it, with the sentence
    expect((await s.member.get('/api/connectivity')).body).toEqual({ offlineMode: { on: true, reason: 'admin', message: expect.stringMatching(ADMIN_SWITCHED) } });
  });

  it('survives a restart, and switched off the same paths reach out again', async () => {
    const { users } = s;
    await s.close();
    s = await startTestServer({ dataDir: temp.dir, config: config() });
    s.admin = await s.signIn(users.admin.id, '1234');
    s.member = await s.signIn(users.member.id, '5678');
    expect(s.handle.deps.offline.isOn()).toBe(true);
    expect(s.handle.deps.offline.reason).toBe('admin');
    const before = pods.requests.length;
    expect((await s.member.get('/api/podcasts/search?q=kitchen')).status).toBe(503);
    expect(pods.requests.length).toBe(before);

    const put = await s.admin.put('/api/admin/connectivity', { offlineMode: false });
    expect(put.status).toBe(200);
    expect(ConnectivityResponse.parse(put.body)).toMatchObject({ offlineMode: { on: false, reason: null }, internet: { status: 'reachable' } });
    expect((await s.member.get('/api/podcasts/search?q=kitchen')).status).toBe(200);
    expect(pods.requests.length).toBeGreaterThan(before);
    expect(await s.handle.deps.settings.get('connectivity.offline_mode')).toBe(false);
  });
  it('an outbound download under way goes back to waiting when offline mode turns on, and resumes when it turns off', async () => {
    const data = Buffer.alloc(1024 * 1024, 7);
    const url = files.addBuffer('big.bin', data, { throttleBps: 256 * 1024 });
    const r = await s.admin.post('/api/admin/queue/jobs', { jobs: [{ kind: 'component', hostClass: 'code_host', target: url, destination: 'components/big.bin', label: 'Big file' }] });
    expect(r.status).toBe(201);
    const id = r.body.jobs[0].id as string;
    const job = async () => ((await s.admin.get('/api/jobs/status')).body.jobs as { id: string; state: string; attempts: number; bytesDone: number }[]).find((j) => j.id === id)!;
    // bytes are arriving (the thread has asked and the file is coming)
    await until(async () => files.requests.some((q) => q.path === 'big.bin') && (await job()).bytesDone > 0, 'the download under way');
    await s.admin.put('/api/admin/connectivity', { offlineMode: true });
    await until(async () => (await job()).state === 'pending', 'the download parked');
    expect((await job()).attempts).toBe(0); // parked, not failed: the attempt does not count
    await s.admin.put('/api/admin/connectivity', { offlineMode: false });
    await until(async () => (await job()).state === 'completed', 'the download finished after going online', 20_000);
    const asked = files.requests.filter((q) => q.path === 'big.bin');
    expect(asked.length).toBe(2);
    expect(asked[1]!.range).toMatch(/^bytes=\d+-$/);
  });
});

describe('offline mode forced by the environment', () => {
  let s: TestServer;
  let internet: ModalFake<'ok'>;
  beforeAll(async () => {
    internet = await startModalFake<'ok'>((_mode, _req, res) => sendText(res, 200, 'text/plain', 'success\n'));
    s = await startTestServer({ seed: 'household', config: { offline: true, connectivityCheckUrl: `${internet.url}/success.txt`, fetchAllowOrigins: [internet.origin] } });
  });
  afterAll(async () => {
    await s.close();
    await internet.close();
  });

  it('shows the switch locked on with why, refuses turning it off with a 409 sentence, and checks nothing', async () => {
    const r = await s.admin.get('/api/admin/connectivity');
    expect(ConnectivityResponse.parse(r.body).offlineMode).toMatchObject({ on: true, reason: 'env', locked: true, message: expect.stringMatching(/started in offline mode/) });
    expect(r.body.internet.status).toBe('offline');
    const off = await s.admin.put('/api/admin/connectivity', { offlineMode: false });
    expect(off.status).toBe(409);
    expect(off.body.error).toMatchObject({ code: 'offline_forced', message: expect.stringMatching(/started in offline mode.*restarts it/) });
    expect(s.handle.deps.offline.isOn()).toBe(true);
    // switching it on as well is allowed (it stays on after a restart without OFFLINE_MODE)
    expect((await s.admin.put('/api/admin/connectivity', { offlineMode: true })).status).toBe(200);
    expect(s.handle.deps.offline.reason).toBe('env');
    expect(internet.requests).toEqual([]);
  });
});

describe('the Telegram long poll and the switch', () => {
  let s: TestServer;
  let tg: FakeTelegram;
  beforeAll(async () => {
    tg = await startFakeTelegram();
    s = await startTestServer({ seed: 'household', config: { telegramApiUrl: tg.url, fetchAllowOrigins: [tg.origin] }, overrides: { tuning: { telegramPollSeconds: 1 } } });
  });
  afterAll(async () => {
    await s.close();
    await tg.close();
  });

  it('stops when an admin switches offline mode on and starts again when it is switched off', async () => {
    expect((await s.admin.put('/api/admin/notify/telegram', { botToken: TELEGRAM_TOKEN })).status).toBe(200);
    const polling = async () => ((await s.admin.get('/api/admin/notify')).body as { channels: { type: string; polling?: boolean }[] }).channels.find((c) => c.type === 'telegram')?.polling;
    await until(async () => (await polling()) === true, 'the poll running');
    await s.admin.put('/api/admin/connectivity', { offlineMode: true });
    await until(async () => (await polling()) === false, 'the poll stopped');
    expect((await s.admin.get('/api/admin/notify')).body.offline).toBe(true);
    const seen = tg.polls.length;
    await s.admin.put('/api/admin/connectivity', { offlineMode: false });
    await until(() => tg.polls.length > seen, 'a getUpdates after the switch');
    expect(await polling()).toBe(true);
  });
});
