// Sign-in under attack: PIN locks belong to the device that guessed wrong, an admin can lift them,
// requests per client are limited, and nothing anonymous can make the server hash PINs for nothing.
// Loopback has a whole /8, so each "device" here is its own 127.0.0.x address.
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Semaphore } from '../../server/platform/semaphore.js';
import { createManualClock } from '../../server/platform/clock.js';
import { ADMIN, MEMBER, REAL_PIN_COST, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const MINUTE = 60_000;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A client on its own loopback address, as another device on the LAN would be. */
function device(baseUrl: string, localAddress: string) {
  const { hostname, port } = new URL(baseUrl);
  return (method: string, path: string, body?: unknown, cookie?: string): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { origin: baseUrl };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      if (cookie) headers.cookie = cookie;
      const req = http.request({ host: hostname, port, method, path, headers, localAddress, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
}

const pinOf = (s: TestServer) => (from: string, userId: string, pin: string) => device(s.url, from)('POST', '/api/auth/verify-pin', { userId, pin });

/** The auth service's PIN-hash slots, to see whether a request hashed a PIN at all. */
function pinSlots(s: TestServer): Semaphore {
  return (s.handle.deps.auth as unknown as { deps: { pinSlots: Semaphore } }).deps.pinSlots;
}

describe('PIN locks are per device', () => {
  const clock = createManualClock();
  let s: TestServer;
  let verify: ReturnType<typeof pinOf>;
  beforeAll(async () => {
    // pacing has its own test below; here it would only make the test wait
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST, overrides: { clock, tuning: { pinThrottle: { paceAfterFailures: 1000, householdPaceAfterFailures: 1000 } } } });
    verify = pinOf(s);
  });
  afterAll(() => s.close());

  async function newUser(name: string, pin: string): Promise<string> {
    const r = await s.admin.post('/api/admin/users', { name, pin });
    expect(r.status).toBe(201);
    return r.body.user.id;
  }

  it('five wrong PINs from one device lock the profile there (429 locked_out, 5 minutes), not on other devices', async () => {
    for (let i = 1; i <= 4; i++) expect((await verify('127.0.0.2', s.users.admin.id, '0000')).status, `attempt ${i}`).toBe(401);
    const fifth = await verify('127.0.0.2', s.users.admin.id, '0000');
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.code).toBe('locked_out');
    expect(fifth.headers['retry-after']).toBe('300');
    expect(fifth.body.error.message).toMatch(/^Too many wrong PINs for this profile on this device\. Try again in 5 minutes/);
    // the right PIN there is refused too (DESIGN.md §4)...
    expect((await verify('127.0.0.2', s.users.admin.id, ADMIN.pin)).status).toBe(429);
    // the PIN screen can say so before anyone types: select answers how long this device waits
    const selected = await device(s.url, '127.0.0.2')('POST', '/api/auth/select', { userId: s.users.admin.id });
    expect(selected.body).toEqual({ userId: s.users.admin.id, name: ADMIN.name, lockedForSeconds: 300 });
    expect((await device(s.url, '127.0.0.3')('POST', '/api/auth/select', { userId: s.users.admin.id })).body).toEqual({ userId: s.users.admin.id, name: ADMIN.name });
    // ...but the admin still signs in from their own device
    const elsewhere = await verify('127.0.0.3', s.users.admin.id, ADMIN.pin);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers['set-cookie']?.some((c) => c.startsWith('session='))).toBe(true);
  });

  it('says how many tries are left on this device, and each further lock there lasts twice as long', async () => {
    const id = await newUser('Twice', '2468');
    const first = await verify('127.0.0.4', id, '1111');
    expect(first.body.error.message).toBe('That PIN is not right. 4 tries left on this device before a 5-minute lock.');
    for (let i = 0; i < 4; i++) await verify('127.0.0.4', id, '1111');
    clock.advance(5 * MINUTE);
    for (let i = 0; i < 4; i++) expect((await verify('127.0.0.4', id, '1111')).status).toBe(401);
    const second = await verify('127.0.0.4', id, '1111');
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('600');
  });

  it('twenty wrong PINs across profiles lock that device out of every profile; other devices are not affected', async () => {
    const ids = await Promise.all(['Pat', 'Lee', 'Kim', 'Max', 'Ray', 'Zoe'].map((n) => newUser(n, '1357')));
    const statuses: number[] = [];
    for (const id of ids.slice(0, 5)) {
      for (let i = 0; i < 4; i++) statuses.push((await verify('127.0.0.5', id, '9999')).status);
    }
    expect(statuses).toEqual([...Array(19).fill(401), 429]); // no profile got its fifth wrong PIN
    const r = await verify('127.0.0.5', ids[5]!, '1357'); // a profile it never tried, the right PIN
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('locked_out');
    expect(r.body.error.message).toMatch(/^Too many wrong PINs from this device\. Try again in 15 minutes/);
    expect((await verify('127.0.0.6', ids[5]!, '1357')).status).toBe(200);
    clock.advance(15 * MINUTE);
  });

  describe('POST /api/admin/users/:id/unlock', () => {
    it('shows the lock to admins and lifts it on every device', async () => {
      const id = await newUser('Locked Out', '8642');
      for (let i = 0; i < 5; i++) await verify('127.0.0.7', id, '1111');
      expect((await verify('127.0.0.7', id, '8642')).status).toBe(429);
      const listed = (await s.admin.get('/api/admin/users')).body.users.find((u: { id: string }) => u.id === id);
      expect(listed.lockedUntil).toBe(new Date(clock.now().getTime() + 5 * MINUTE).toISOString());

      const r = await s.admin.post(`/api/admin/users/${id}/unlock`);
      expect(r.status).toBe(200);
      expect(r.body.user).toMatchObject({ id, name: 'Locked Out', lockedUntil: null });
      expect((await verify('127.0.0.7', id, '8642')).status).toBe(200);
      expect(s.logger.lines.some((l) => l.msg === 'PIN locks lifted by an admin')).toBe(true);
    });

    it('is for admins only, and 404 for an unknown member', async () => {
      expect((await s.member.post(`/api/admin/users/${s.users.admin.id}/unlock`)).status).toBe(403);
      expect((await s.anon.post(`/api/admin/users/${s.users.admin.id}/unlock`)).status).toBe(401);
      const missing = await s.admin.post('/api/admin/users/00000000-0000-4000-8000-000000000000/unlock');
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
    });

    it('a new PIN lifts the lock as well', async () => {
      const id = await newUser('New Pin', '1470');
      for (let i = 0; i < 5; i++) await verify('127.0.0.8', id, '1111');
      expect((await s.admin.patch(`/api/admin/users/${id}`, { pin: '2581' })).status).toBe(200);
      expect((await verify('127.0.0.8', id, '2581')).status).toBe(200);
    });
  });
});

describe('PIN checks for a profile guessed at from many devices are slowed, not locked', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST, overrides: { tuning: { pinThrottle: { paceAfterFailures: 3, paceBaseMs: 400 } } } });
  });
  afterAll(() => s.close());

  it('spaces checks once the profile has wrong PINs from several devices, and the right PIN still works', async () => {
    const verify = pinOf(s);
    for (let i = 0; i < 3; i++) expect((await verify(`127.0.1.${i + 1}`, s.users.member.id, '0000')).status).toBe(401);
    const started = performance.now();
    const [a, b] = await Promise.all([verify('127.0.1.10', s.users.member.id, '0000'), verify('127.0.1.11', s.users.member.id, MEMBER.pin)]);
    expect(a.status).toBe(401);
    expect(b.status).toBe(200);
    // the second check waited for its turn (400 ms after the first)
    expect(performance.now() - started).toBeGreaterThanOrEqual(380);
  });
});

describe('a browser where the member signed in before is not slowed by guesses from elsewhere', () => {
  /** A paced check (2 s apart) waits at least this long; an unpaced one answers in well under it. */
  const PACED_MS = 1_600;
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST, overrides: { tuning: { pinThrottle: { paceAfterFailures: 2, paceBaseMs: 2000 } } } });
  });
  afterAll(() => s.close());

  it('signs in at once with its device cookie while strangers’ checks wait their turn', async () => {
    const phone = device(s.url, '127.0.1.50');
    const first = await phone('POST', '/api/auth/verify-pin', { userId: s.users.member.id, pin: MEMBER.pin });
    expect(first.status).toBe(200);
    const cookie = (first.headers['set-cookie'] ?? []).find((c) => c.startsWith('device='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/auth/);
    const deviceCookie = cookie.split(';')[0]!;

    const verify = pinOf(s);
    for (let i = 0; i < 2; i++) expect((await verify(`127.0.1.${60 + i}`, s.users.member.id, '0000')).status).toBe(401);
    // the profile is now paced: a stranger's next check waits 2 s for its turn...
    const started = performance.now();
    const stranger = verify('127.0.1.62', s.users.member.id, '0000');
    const own = await phone('POST', '/api/auth/verify-pin', { userId: s.users.member.id, pin: MEMBER.pin }, deviceCookie);
    // ...the member's own phone does not
    expect(own.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1500);
    expect((await stranger).status).toBe(401);
    // paced: about 2 s. The next slot counts from the previous check, whose own PIN hashing (real
    // cost, slower on a loaded machine) already used part of it, so the bound leaves room for that
    expect(performance.now() - started).toBeGreaterThanOrEqual(PACED_MS);
    // the member signing in does not end the pace for others, and a made-up device cookie is a stranger's
    const again = performance.now();
    const forged = await device(s.url, '127.0.1.66')('POST', '/api/auth/verify-pin', { userId: s.users.member.id, pin: '0000' }, 'device=made-up');
    expect(forged.status).toBe(401);
    expect(performance.now() - again).toBeGreaterThanOrEqual(PACED_MS);
  });
});

describe('a restart keeps PIN locks and the browsers members signed in on', () => {
  // Paced checks are 10 minutes apart, beyond MAX_PIN_WAIT_MS: a check that would have to wait for
  // its turn is refused at once (429 rate_limited) instead of waiting, so nothing here is timed.
  const tuning = { pinThrottle: { paceAfterFailures: 5, paceBaseMs: 10 * MINUTE, paceMaxMs: 10 * MINUTE } };
  const temp = makeTempDir();
  let s: TestServer | null = null;
  afterAll(async () => {
    await s?.close();
    temp.remove();
  });

  it('after close and a new createServer on the same DATA_DIR, a lock still holds and the member’s own phone still skips the pace', async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST, dataDir: temp.dir, overrides: { tuning } });
    const { member, admin: adminUser } = s.users;
    const phone = device(s.url, '127.0.5.1');
    const first = await phone('POST', '/api/auth/verify-pin', { userId: member.id, pin: MEMBER.pin });
    expect(first.status).toBe(200);
    const deviceCookie = (first.headers['set-cookie'] ?? []).find((c) => c.startsWith('device='))!.split(';')[0]!;
    const attacker = device(s.url, '127.0.5.2');
    for (let i = 0; i < 4; i++) expect((await attacker('POST', '/api/auth/verify-pin', { userId: member.id, pin: '0000' })).status).toBe(401);
    expect((await attacker('POST', '/api/auth/verify-pin', { userId: member.id, pin: '0000' })).status).toBe(429);
    await s.close();

    s = await startTestServer({ seed: 'empty', config: REAL_PIN_COST, dataDir: temp.dir, overrides: { tuning } });
    const after = s;
    // the lock is still there: the right PIN from that device is refused, and the admin sees the lock
    const locked = await device(after.url, '127.0.5.2')('POST', '/api/auth/verify-pin', { userId: member.id, pin: MEMBER.pin });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('locked_out');
    expect((await device(after.url, '127.0.5.2')('POST', '/api/auth/select', { userId: member.id })).body.lockedForSeconds).toBeGreaterThan(0);
    const admin = await after.signIn(adminUser.id, ADMIN.pin);
    const listed = (await admin.get('/api/admin/users')).body.users.find((u: { id: string }) => u.id === member.id);
    expect(listed.lockedUntil).not.toBeNull();

    // twenty addresses guess her PIN: her profile's checks are spaced (or refused) for strangers...
    const strangers: number[] = [];
    for (let i = 0; i < 20; i++) strangers.push((await device(after.url, `127.0.6.${i + 1}`)('POST', '/api/auth/verify-pin', { userId: member.id, pin: '0000' })).status);
    expect(strangers.every((st) => st === 401 || st === 429)).toBe(true);
    expect(strangers).toContain(429);
    expect((await device(after.url, '127.0.6.99')('POST', '/api/auth/verify-pin', { userId: member.id, pin: MEMBER.pin })).body.error?.code).toBe('rate_limited');
    // ...but her own phone, which signed in before the restart, gets in at once
    const own = await device(after.url, '127.0.5.1')('POST', '/api/auth/verify-pin', { userId: member.id, pin: MEMBER.pin }, deviceCookie);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
  });
});

describe('requests per client', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST, overrides: { tuning: { signInRequestsPerMinute: 5, setupRequestsPerMinute: 4 } } });
  });
  afterAll(() => s.close());

  it('select and verify-pin share a per-client limit: 429 rate_limited with Retry-After, per device', async () => {
    const phone = device(s.url, '127.0.0.20');
    for (let i = 0; i < 3; i++) expect((await phone('POST', '/api/auth/select', { userId: s.users.member.id })).status).toBe(200);
    expect((await phone('POST', '/api/auth/verify-pin', { userId: s.users.member.id, pin: '0000' })).status).toBe(401);
    expect((await phone('POST', '/api/auth/verify-pin', { userId: s.users.member.id, pin: MEMBER.pin })).status).toBe(200);
    const over = await phone('POST', '/api/auth/select', { userId: s.users.member.id });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.body.error.message).toMatch(/^Too many sign-in attempts from this device\. Wait \d+ seconds?, then try again\.$/);
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // another device is not affected
    expect((await device(s.url, '127.0.0.21')('POST', '/api/auth/select', { userId: s.users.member.id })).status).toBe(200);
  });

  it('the anonymous setup routes have their own per-client limit', async () => {
    const laptop = device(s.url, '127.0.0.22');
    for (let i = 0; i < 3; i++) expect((await laptop('GET', '/api/setup/status')).status).toBe(200);
    expect((await laptop('POST', '/api/setup/admin', { name: 'Mallory', pin: '1234' })).status).toBe(409);
    const over = await laptop('POST', '/api/setup/admin', { name: 'Mallory', pin: '1234' });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.headers['retry-after']).toBeDefined();
  });
});

describe('cheap refusals come before PIN hashing', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST });
  });
  afterAll(() => s.close());
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('POST /api/setup/admin after setup answers 409 admin_exists without hashing the PIN, even 50 at once', async () => {
    const run = vi.spyOn(pinSlots(s), 'run');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => device(s.url, `127.0.2.${i + 1}`)('POST', '/api/setup/admin', { name: `Flood ${i}`, pin: '1234' })),
    );
    expect(results.map((r) => r.body.error.code)).toEqual(Array(50).fill('admin_exists'));
    expect(run).not.toHaveBeenCalled();
  });

  it('a locked device, an unknown profile or a malformed PIN never reach the hash', async () => {
    const verify = pinOf(s);
    for (let i = 0; i < 5; i++) await verify('127.0.3.1', s.users.member.id, '0000');
    const run = vi.spyOn(pinSlots(s), 'run');
    expect((await verify('127.0.3.1', s.users.member.id, MEMBER.pin)).status).toBe(429);
    expect((await verify('127.0.3.2', 'no-such-user', '1234')).status).toBe(404);
    expect((await verify('127.0.3.3', s.users.member.id, 'abcd')).status).toBe(401);
    expect(run).not.toHaveBeenCalled();
  });

  it('member changes refused for a taken name or the last admin do not hash the new PIN', async () => {
    const run = vi.spyOn(pinSlots(s), 'run');
    expect((await s.admin.post('/api/admin/users', { name: MEMBER.name, pin: '1111' })).status).toBe(409);
    expect((await s.admin.patch(`/api/admin/users/${s.users.member.id}`, { name: ADMIN.name, pin: '1111' })).status).toBe(409);
    expect((await s.admin.patch(`/api/admin/users/${s.users.admin.id}`, { role: 'member', pin: '1111' })).status).toBe(409);
    expect((await s.admin.patch('/api/admin/users/00000000-0000-4000-8000-000000000000', { pin: '1111' })).status).toBe(404);
    expect(run).not.toHaveBeenCalled();
  });

  it('at most two PIN hashes run at once, however many sign-ins arrive together', async () => {
    const slots = pinSlots(s);
    let peak = 0;
    const original = slots.run.bind(slots);
    const spy = vi.spyOn(slots, 'run').mockImplementation((task) =>
      original(async () => {
        peak = Math.max(peak, slots.pending - (slots as unknown as { waiting: unknown[] }).waiting.length);
        return task();
      }),
    );
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => pinOf(s)(`127.0.4.${i + 1}`, s.users.admin.id, i === 11 ? ADMIN.pin : '0000')));
    expect(results.filter((r) => r.status === 401), JSON.stringify(results.map((r) => r.body))).toHaveLength(11);
    expect(spy).toHaveBeenCalledTimes(12);
    expect(peak).toBeLessThanOrEqual(2);
  });
});
