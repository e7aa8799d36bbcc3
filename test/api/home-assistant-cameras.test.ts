// Camera events from Frigate over HTTP (issue 37): an admin sets the recorder (its sign-in checked
// before it is saved; the password never answered or logged) and the members told; new events
// (person, car, animal) polled from the fake become notifications with Hearth's own snapshot
// address, listed at GET /api/home-assistant/events, their snapshots and clips proxied (only to
// admins and the members told; a clip streamed with Range passed on); the recorder down, silent,
// answering garbage or cutting a clip is a 503 sentence or a cut stream, never its address. The broker path: a real mosquitto on
// 127.0.0.1 and a `frigate/events` message published with npm mqtt.
import { spawn, type ChildProcess } from 'node:child_process';
import dns from 'node:dns';
import { existsSync } from 'node:fs';
import { connectAsync } from 'mqtt';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectGuardedMqtt } from '../../server/adapters/smart-home/mqtt.js';
import { createSsrfGuard } from '../../server/platform/ssrf.js';
import { startFakeFrigate, type FakeFrigate } from '../fakes/frigate.js';
import { createTokenScan } from '../harness/media-token-scan.js';
import { freePort, until } from '../harness/net.js';
import { stopProcess } from '../harness/processes.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const PASSWORD = 'frigate-secret-password-42';
const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p)) ?? 'mosquitto';

describe('camera events from Frigate (/api/admin/frigate, /api/home-assistant/events)', () => {
  let frigate: FakeFrigate;
  let s: TestServer;
  const scan = createTokenScan();

  beforeAll(async () => {
    frigate = await startFakeFrigate({ user: 'hearth', password: PASSWORD, clips: true });
    s = await startTestServer({ seed: 'household', overrides: { tuning: { homeAssistantTimeoutMs: 2_000, frigatePollMs: 3_600_000 } } });
    scan.watch(s);
  });
  afterAll(async () => {
    await s?.close();
    await frigate?.close();
  });

  const put = (body: Record<string, unknown>) => s.admin.put('/api/admin/frigate', body);
  const memberNotifications = async () => (await s.member.get('/api/notifications')).body.notifications as Array<{ type: string; payload: Record<string, unknown> }>;

  it('who may ask: 401 without a session, 403 for a member on the admin group; a member not told sees nothing', async () => {
    expect((await s.anon.get('/api/admin/frigate')).status).toBe(401);
    expect((await s.anon.get('/api/home-assistant/events')).status).toBe(401);
    expect((await s.member.get('/api/admin/frigate')).status).toBe(403);
    expect((await s.member.put('/api/admin/frigate', { url: frigate.url, notify: [] })).status).toBe(403);
    expect((await s.member.get('/api/home-assistant/events')).body).toEqual({ shared: false, events: [] });
  });

  it('checks the recorder before saving: a wrong password and garbage are 422 sentences; bad input 400', async () => {
    const wrong = await put({ url: frigate.url, user: 'hearth', password: 'nope-nope', notify: [] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toEqual({ code: 'camera_recorder_sign_in_refused', message: expect.stringMatching(/did not accept that user name and password/) });
    frigate.garbage = true;
    const garbage = await put({ url: frigate.url, notify: [] });
    frigate.garbage = false;
    expect(garbage.body.error.code).toBe('camera_recorder_not_found');
    expect((await put({ url: frigate.url, user: 'hearth', notify: [] })).status).toBe(400);
    expect((await put({ url: frigate.url, notify: ['not-a-uuid'] })).status).toBe(400);
    expect((await put({ url: frigate.url, notify: [], mqttUrl: 'mqtt://u:p@10.0.0.2:1883' })).status).toBe(400);
    expect((await s.admin.get('/api/admin/frigate')).body.configured).toBe(false);
  });

  it('saves with a sign-in; the password is never answered', async () => {
    const r = await put({ url: frigate.url, user: 'hearth', password: PASSWORD, notify: [s.users.member.id] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ configured: true, url: frigate.url, user: 'hearth', passwordSet: true, mqttUrl: null, notify: [s.users.member.id], version: '0.14.1-f4f3cfa' });
    expect(frigate.log).toContain('POST /api/login');
  });

  it('saving again without the password keeps it for the same user name; null clears it; a user name without any password is 400', async () => {
    const stored = async () => (await s.handle.deps.db('frigate_connection').first('user', 'password')) as { user: string | null; password: string | null };
    const logins = () => frigate.log.filter((l) => l === 'POST /api/login').length;
    const before = logins();
    for (const body of [{}, { password: '' }]) {
      const again = await put({ url: frigate.url, user: 'hearth', ...body, notify: [s.users.member.id] });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ user: 'hearth', passwordSet: true });
    }
    // the kept password signed in for the check each time
    expect(logins()).toBe(before + 2);
    expect(await stored()).toEqual({ user: 'hearth', password: PASSWORD });
    const cleared = await put({ url: frigate.url, user: 'hearth', password: null, notify: [] });
    expect(cleared.status).toBe(400);
    expect(cleared.body.error.message).toMatch(/Give the password/);
    expect((await put({ url: frigate.url, user: 'someone-else', notify: [] })).status).toBe(400);
    expect((await put({ url: frigate.url, password: 'x-password', notify: [] })).status).toBe(400);
    // no user name and the password cleared: the recorder (which wants a sign-in) refuses, nothing changes
    const none = await put({ url: frigate.url, user: null, password: null, notify: [] });
    expect(none.body.error.code).toBe('camera_recorder_sign_in_refused');
    expect(await stored()).toEqual({ user: 'hearth', password: PASSWORD });
  });

  it('a person, a car and an animal become notifications to the members told, once each; other labels are left out', async () => {
    const person = frigate.addEvent('front_door', 'person');
    frigate.addEvent('driveway', 'car', { hasSnapshot: false });
    frigate.addEvent('garden', 'dog');
    frigate.addEvent('garden', 'umbrella');
    expect(await s.handle.deps.cameras.poll()).toBe(3);
    expect(await s.handle.deps.cameras.poll()).toBe(0);
    const mine = (await memberNotifications()).filter((n) => n.payload.eventId);
    expect(mine.map((n) => n.payload.title).sort()).toEqual(['A car at driveway', 'An animal (dog) at garden', 'Someone at front door']);
    const note = mine.find((n) => n.payload.eventId === person.id)!;
    expect(note).toMatchObject({ type: 'system', payload: { link: '/smart-home', snapshotUrl: `/api/home-assistant/events/${encodeURIComponent(person.id)}/snapshot.jpg` } });
    // the admin is not among the members told
    expect((await s.admin.get('/api/notifications')).body.notifications.filter((n: { payload: Record<string, unknown> }) => n.payload.eventId)).toEqual([]);
  });

  it('lists the events with Hearth snapshot addresses and proxies the JPEG; no camera address reaches the answer', async () => {
    const r = await s.member.get('/api/home-assistant/events');
    expect(r.body.shared).toBe(true);
    expect(r.body.events.map((e: { label: string }) => e.label)).toEqual(['dog', 'car', 'person']);
    expect(r.text).not.toContain(frigate.url);
    const person = r.body.events.find((e: { label: string }) => e.label === 'person');
    expect(person.snapshotUrl).toMatch(/^\/api\/home-assistant\/events\/.+\/snapshot\.jpg$/);
    expect(r.body.events.find((e: { label: string }) => e.label === 'car').snapshotUrl).toBeNull();
    const shot = await request(`${s.url}${person.snapshotUrl}`, { headers: { cookie: s.member.cookie! } });
    expect(shot.statusCode).toBe(200);
    expect(shot.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.from(await shot.body.arrayBuffer()).subarray(0, 3).toString('hex')).toBe('ffd8ff');
    expect((await s.member.get('/api/home-assistant/events/no-such-event/snapshot.jpg')).status).toBe(404);
    expect((await s.member.get('/api/home-assistant/events/bad%20id/snapshot.jpg')).status).toBe(400);

    frigate.down = true;
    const down = await s.member.get(person.snapshotUrl);
    frigate.down = false;
    expect(down.status).toBe(503);
    expect(down.body.error).toEqual({ code: 'camera_recorder_unavailable', message: expect.stringMatching(/not answering right now/) });

    // a member no longer told sees neither the list nor the pictures
    await put({ url: frigate.url, user: 'hearth', password: PASSWORD, notify: [] });
    expect((await s.member.get('/api/home-assistant/events')).body).toEqual({ shared: false, events: [] });
    expect((await s.member.get(person.snapshotUrl)).status).toBe(404);
    expect((await s.admin.get(person.snapshotUrl)).status).toBe(200);
  });

  it('proxies a clip with the player’s Range passed on; the recorder down, silent, garbage or cutting it is said, not its address', async () => {
    await put({ url: frigate.url, user: 'hearth', password: PASSWORD, notify: [s.users.member.id] });
    const e = frigate.addEvent('front_door', 'person', { hasClip: true });
    expect(await s.handle.deps.cameras.poll()).toBe(1);
    const list = await s.member.get('/api/home-assistant/events');
    const view = list.body.events.find((x: { id: string }) => x.id === e.id);
    expect(view.clipUrl).toBe(`/api/home-assistant/events/${encodeURIComponent(e.id)}/clip`);
    expect(list.body.events.filter((x: { clipUrl: string | null }) => x.clipUrl !== null)).toHaveLength(1);
    const get = (headers: Record<string, string> = {}, who = s.member.cookie!) => request(`${s.url}${view.clipUrl}`, { headers: { cookie: who, ...headers } });

    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['cache-control']).toBe('private, no-store');
    const bytes = Buffer.from(await whole.body.arrayBuffer());
    expect(bytes.equals(frigate.clip)).toBe(true);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');

    const part = await get({ range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${frigate.clip.length}`);
    expect(Buffer.from(await part.body.arrayBuffer()).equals(frigate.clip.subarray(100, 200))).toBe(true);
    const past = await get({ range: `bytes=${frigate.clip.length + 10}-` });
    expect(past.statusCode).toBe(416);
    await past.body.dump();

    expect((await s.anon.get(view.clipUrl)).status).toBe(401);
    const withoutClip = list.body.events.find((x: { clipUrl: string | null; id: string }) => x.clipUrl === null);
    expect((await s.member.get(`/api/home-assistant/events/${encodeURIComponent(withoutClip.id)}/clip`)).status).toBe(404);
    expect((await s.member.get('/api/home-assistant/events/bad%20id/clip')).status).toBe(400);

    for (const knob of ['down', 'garbage', 'clipSilent'] as const) {
      frigate[knob] = true;
      const r = await s.member.get(view.clipUrl);
      frigate[knob] = false;
      expect(r.status, knob).toBe(503);
      expect(r.body.error).toEqual({ code: 'camera_recorder_unavailable', message: expect.stringMatching(/so the clip cannot be shown/) });
      expect(r.text).not.toContain(frigate.url);
    }
    // cut part-way: the player gets a stream that ends short, never a complete-looking clip
    frigate.clipCut = true;
    try {
      const cut = await get();
      expect(cut.statusCode).toBe(200);
      const got = await cut.body.arrayBuffer().then((b) => b.byteLength, () => -1);
      expect(got).toBeLessThan(frigate.clip.length);
    } finally {
      frigate.clipCut = false;
    }

    // a member no longer told gets no clip
    await put({ url: frigate.url, user: 'hearth', password: PASSWORD, notify: [] });
    expect((await s.member.get(view.clipUrl)).status).toBe(404);
    expect((await get({}, s.admin.cookie!)).statusCode).toBe(200);
  });

  describe('from the MQTT broker (mosquitto)', () => {
    let broker: ChildProcess | null = null;
    let port = 0;
    beforeAll(async () => {
      port = await freePort();
      broker = spawn(MOSQUITTO, ['-p', String(port)], { stdio: 'ignore' });
      await until(async () => {
        try {
          await (await connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 500 })).endAsync();
          return true;
        } catch {
          return false;
        }
      }, 'mosquitto listening');
    });
    afterAll(async () => {
      await s.admin.delete('/api/admin/frigate');
      await stopProcess(broker);
    });

    it('the broker’s name is resolved by the guard’s checked lookup: pinned, and refused when it points somewhere private', async () => {
      const asked: string[] = [];
      // a name only the guard's lookup knows: the connection reaches the broker only through it
      const toLoopback = ((host: string, opts: dns.LookupOptions, cb: (...a: unknown[]) => void) => {
        asked.push(host);
        dns.lookup('127.0.0.1', opts, cb as never);
      }) as unknown as typeof dns.lookup;
      const home = createSsrfGuard({ lanOrigins: [`http://hearth-broker.invalid:${port}`], lookup: toLoopback });
      const client = await connectGuardedMqtt(`mqtt://hearth-broker.invalid:${port}`, home, { reconnectPeriod: 0, connectTimeout: 2_000 });
      try {
        await new Promise((resolve, reject) => {
          client.once('connect', resolve);
          client.once('error', reject);
        });
      } finally {
        await client.endAsync(true);
      }
      expect(asked).toContain('hearth-broker.invalid');
      // a public-looking name that resolves to a private address is refused at connect time
      const outside = createSsrfGuard({ lookup: toLoopback });
      const refused = await connectGuardedMqtt(`mqtt://broker.example.com:${port}`, outside, { reconnectPeriod: 0, connectTimeout: 2_000 });
      try {
        const err = await new Promise<Error & { code?: unknown }>((resolve) => refused.once('error', resolve));
        expect(err.code).toBe('ESSRFBLOCKED');
      } finally {
        await refused.endAsync(true);
      }
      // an address the guard refuses outright never opens a socket
      await expect(connectGuardedMqtt(`mqtt://10.9.8.7:${port}`, outside, { reconnectPeriod: 0 })).rejects.toThrow(/private or local network/);
    });

    it('a `frigate/events` new event becomes a notification with its snapshot address', async () => {
      const r = await put({ url: frigate.url, user: 'hearth', password: PASSWORD, mqttUrl: `mqtt://127.0.0.1:${port}`, notify: [s.users.member.id] });
      expect(r.body.mqttUrl).toBe(`mqtt://127.0.0.1:${port}`);
      expect(await s.handle.deps.cameras.brokerReady()).toBe(true);
      const e = frigate.addEvent('back_door', 'person');
      const pub = await connectAsync(`mqtt://127.0.0.1:${port}`);
      try {
        await until(async () => {
          await pub.publishAsync('frigate/events', frigate.mqttNew(e));
          return (await memberNotifications()).some((n) => n.payload.eventId === e.id);
        }, 'the broker event as a notification');
        await pub.publishAsync('frigate/events', 'not json');
        await pub.publishAsync('frigate/events', JSON.stringify({ type: 'end', after: { id: 'x' } }));
      } finally {
        await pub.endAsync();
      }
      const n = (await memberNotifications()).find((x) => x.payload.eventId === e.id)!;
      expect(n.payload).toMatchObject({ title: 'Someone at back door', snapshotUrl: expect.stringMatching(/^\/api\/home-assistant\/events\//) });
      // while a broker is set, the recorder is not polled
      expect(await s.handle.deps.cameras.poll()).toBe(0);
    });
  });

  it('DELETE forgets the recorder and its events; no password reached an answer or a log line', async () => {
    const r = await s.admin.delete('/api/admin/frigate');
    expect(r.body.configured).toBe(false);
    expect((await s.admin.get('/api/home-assistant/events')).body).toEqual({ shared: false, events: [] });
    scan.expectNoTokens([PASSWORD]);
  });
});
