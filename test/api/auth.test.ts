import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../server/platform/clock.js';
import { TestClient, type TestResponse } from '../harness/client.js';
import { ADMIN, MEMBER, REAL_PIN_COST, startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const THIRTY_DAYS_S = 30 * 24 * 60 * 60;

function setCookies(r: TestResponse): string[] {
  const h = r.headers['set-cookie'];
  return Array.isArray(h) ? h : h ? [h] : [];
}

/** The `session` Set-Cookie header split into its value and attributes (lower-cased names). */
function sessionCookie(r: TestResponse): { value: string; attrs: Map<string, string> } | null {
  const c = setCookies(r).find((x) => x.startsWith('session='));
  if (!c) return null;
  const [pair, ...rest] = c.split(';').map((s) => s.trim());
  const attrs = new Map<string, string>();
  for (const a of rest) {
    const [k, ...v] = a.split('=');
    attrs.set(k!.toLowerCase(), v.join('='));
  }
  return { value: pair!.slice('session='.length), attrs };
}

const SECRET_MARKERS = ['pin_hash', 'pinHash', 'scrypt'];
function expectNoSecrets(r: TestResponse): void {
  for (const m of SECRET_MARKERS) expect(r.text, `${m} leaked`).not.toContain(m);
  expect(r.text).not.toMatch(/\$[A-Za-z0-9+/]{20,}={0,2}\$/); // anything shaped like a stored hash
}

describe('auth with a household', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST });
  });
  afterAll(() => s.close());

  describe('GET /api/auth/profiles', () => {
    it('lists every profile with only public fields', async () => {
      const r = await s.anon.get('/api/auth/profiles');
      expect(r.status).toBe(200);
      expect(r.body.profiles).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: s.users.admin.id, name: ADMIN.name, role: 'admin' }),
          expect.objectContaining({ id: s.users.member.id, name: MEMBER.name, role: 'member' }),
        ]),
      );
      for (const p of r.body.profiles) expect(Object.keys(p).sort()).toEqual(expect.arrayContaining(['id', 'name', 'role']));
      for (const p of r.body.profiles) for (const k of Object.keys(p)) expect(['id', 'name', 'role', 'avatar']).toContain(k);
      expectNoSecrets(r);
    });
  });

  it('no response of the auth and user routes carries a PIN hash', async () => {
    const responses: TestResponse[] = [];
    responses.push(await s.anon.get('/api/auth/profiles'));
    responses.push(await s.anon.post('/api/auth/select', { userId: s.users.member.id }));
    responses.push(await new TestClient(s.url).post('/api/auth/verify-pin', { userId: s.users.member.id, pin: MEMBER.pin }));
    responses.push(await s.anon.post('/api/auth/verify-pin', { userId: s.users.member.id, pin: '0000' }));
    responses.push(await s.member.get('/api/auth/me'));
    responses.push(await s.admin.get('/api/auth/me'));
    responses.push(await s.admin.get('/api/admin/users'));
    const created = await s.admin.post('/api/admin/users', { name: 'Leak Check', pin: '4321' });
    responses.push(created);
    responses.push(await s.admin.patch(`/api/admin/users/${created.body.user.id}`, { pin: '9876', name: 'Leak Check 2' }));
    responses.push(await s.admin.post('/api/admin/users', { name: 'Leak Check 2', pin: '4321' })); // 409
    responses.push(await s.anon.get('/api/setup/status'));
    // every GET route in the table, as admin (streams excepted: they answer until the client leaves)
    for (const route of s.handle.routes.filter((x) => x.method === 'get' && !x.path.includes(':') && x.response !== 'events')) {
      responses.push(await s.admin.get(route.path));
    }
    expect(responses.length).toBeGreaterThan(10);
    for (const r of responses) expectNoSecrets(r);
  });

  describe('POST /api/auth/select', () => {
    it('answers the profile name for a known user', async () => {
      const r = await s.anon.post('/api/auth/select', { userId: s.users.member.id });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ userId: s.users.member.id, name: MEMBER.name });
    });

    it('answers 404 for an unknown user', async () => {
      const r = await s.anon.post('/api/auth/select', { userId: 'no-such-user' });
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    });
  });

  describe('POST /api/auth/verify-pin', () => {
    it('signs in with a session cookie: HttpOnly, SameSite=Lax, Path=/, 30-day Max-Age', async () => {
      const c = new TestClient(s.url);
      const r = await c.post('/api/auth/verify-pin', { userId: s.users.member.id, pin: MEMBER.pin });
      expect(r.status).toBe(200);
      expect(r.body.user).toMatchObject({ id: s.users.member.id, name: MEMBER.name, role: 'member' });
      const cookie = sessionCookie(r);
      expect(cookie).not.toBeNull();
      expect(cookie!.value.length).toBeGreaterThanOrEqual(32);
      expect(cookie!.attrs.has('httponly')).toBe(true);
      expect(cookie!.attrs.get('samesite')?.toLowerCase()).toBe('lax');
      expect(cookie!.attrs.get('path')).toBe('/');
      expect(Math.abs(Number(cookie!.attrs.get('max-age')) - THIRTY_DAYS_S)).toBeLessThanOrEqual(60);
      // plain HTTP on the LAN: Secure would make the browser drop the cookie
      expect(cookie!.attrs.has('secure')).toBe(false);
      expect((await c.get('/api/auth/me')).body.user.id).toBe(s.users.member.id);
    });

    it('answers 401 invalid_pin for a wrong PIN and sets no cookie', async () => {
      const r = await s.anon.post('/api/auth/verify-pin', { userId: s.users.admin.id, pin: '0000' });
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('invalid_pin');
      expect(typeof r.body.error.message).toBe('string');
      expect(sessionCookie(r)).toBeNull();
    });

    it('answers 404 for an unknown profile', async () => {
      const r = await s.anon.post('/api/auth/verify-pin', { userId: 'no-such-user', pin: '1234' });
      expect(r.status).toBe(404);
    });
  });

  describe('PIN rules (4 to 8 digits)', () => {
    it.each([
      ['3 digits', '123'],
      ['9 digits', '123456789'],
      ['letters', '12a4'],
      ['spaces', '12 34'],
      ['a number, not a string', 1234],
    ])('refuses a PIN with %s: 400 invalid_request with details', async (_label, pin) => {
      const r = await s.admin.post('/api/admin/users', { name: `Pin ${String(pin)}`, pin });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.details).toEqual(expect.arrayContaining([{ path: 'pin', message: expect.any(String) }]));
    });

    it('accepts 4 and 8 digits', async () => {
      const four = await s.admin.post('/api/admin/users', { name: 'Four Digits', pin: '0007' });
      const eight = await s.admin.post('/api/admin/users', { name: 'Eight Digits', pin: '87654321' });
      expect([four.status, eight.status]).toEqual([201, 201]);
      const signIn = await new TestClient(s.url).post('/api/auth/verify-pin', { userId: eight.body.user.id, pin: '87654321' });
      expect(signIn.status).toBe(200);
    });
  });

  describe('GET /api/auth/me', () => {
    it('answers the signed-in user', async () => {
      const r = await s.admin.get('/api/auth/me');
      expect(r.status).toBe(200);
      expect(r.body.user).toMatchObject({ id: s.users.admin.id, name: ADMIN.name, role: 'admin' });
    });

    it('answers 401 unauthenticated without a session, or with a made-up one', async () => {
      expect((await s.anon.get('/api/auth/me')).body.error.code).toBe('unauthenticated');
      const forged = new TestClient(s.url, 'session=' + 'A'.repeat(43));
      expect((await forged.get('/api/auth/me')).status).toBe(401);
    });
  });

  describe('GET /api/auth/session', () => {
    it('answers the signed-in user, and null (not a 401) without a session or with a made-up one', async () => {
      const r = await s.member.get('/api/auth/session');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ user: expect.objectContaining({ id: s.users.member.id, name: MEMBER.name, role: 'member' }), locale: expect.objectContaining({ language: expect.any(String), timeZone: expect.any(String) }) });
      for (const c of [s.anon, new TestClient(s.url, 'session=' + 'A'.repeat(43))]) {
        const anon = await c.get('/api/auth/session');
        expect(anon.status).toBe(200);
        expect(anon.body).toEqual({ user: null, locale: null });
      }
    });
  });

  describe('POST /api/auth/logout', () => {
    it('deletes the session server-side: the old cookie no longer works, even replayed', async () => {
      const device = await s.signIn(s.users.member.id, MEMBER.pin);
      const other = await s.signIn(s.users.member.id, MEMBER.pin);
      const oldCookie = device.cookie!;
      const sessionsBefore = await s.handle.deps.db('sessions').where({ user_id: s.users.member.id }).count({ n: '*' }).first();

      const r = await device.post('/api/auth/logout');
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true });
      expect(device.cookie).toBeUndefined(); // the response cleared it

      const replay = new TestClient(s.url, oldCookie);
      expect((await replay.get('/api/auth/me')).status).toBe(401);
      expect((await replay.post('/api/auth/logout')).status).toBe(401);
      const sessionsAfter = await s.handle.deps.db('sessions').where({ user_id: s.users.member.id }).count({ n: '*' }).first();
      expect(Number(sessionsAfter!.n)).toBe(Number(sessionsBefore!.n) - 1);
      // only that device was signed out
      expect((await other.get('/api/auth/me')).status).toBe(200);
    });
  });

  describe('session storage', () => {
    it('stores only a hash of the cookie token', async () => {
      const c = await s.signIn(s.users.member.id, MEMBER.pin);
      const token = c.cookie!.slice('session='.length);
      const rows = await s.handle.deps.db('sessions').select('*');
      expect(rows.length).toBeGreaterThan(0);
      const dump = JSON.stringify(rows);
      expect(dump).not.toContain(token);
      expect(dump).not.toContain(decodeURIComponent(token));
      // the lookup key is a one-way hash of the token
      const mine = rows.filter((row: { token_hash: string }) => row.token_hash === createHash('sha256').update(token).digest('hex'));
      expect(mine).toHaveLength(1);
      expect(mine[0].user_id).toBe(s.users.member.id);
    });
  });
});

describe('PIN lockout and sliding session expiry (manual clock)', () => {
  const clock = createManualClock();
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST, overrides: { clock } });
  });
  afterAll(() => s.close());

  async function newUser(name: string, pin: string): Promise<string> {
    const r = await s.admin.post('/api/admin/users', { name, pin });
    expect(r.status).toBe(201);
    return r.body.user.id;
  }
  const attempt = (userId: string, pin: string) => new TestClient(s.url).post('/api/auth/verify-pin', { userId, pin });

  it('locks a profile for 5 minutes after 5 wrong PINs, even for the right PIN', async () => {
    const id = await newUser('Lock One', '2468');
    for (let i = 1; i <= 4; i++) {
      const r = await attempt(id, '1111');
      expect(r.status, `attempt ${i}`).toBe(401);
      expect(r.body.error.code).toBe('invalid_pin');
    }
    const fifth = await attempt(id, '1111');
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.code).toBe('locked_out');
    expect(Number(fifth.headers['retry-after'])).toBe(300);

    clock.advance(2 * MINUTE);
    const right = await attempt(id, '2468');
    expect(right.status).toBe(429);
    expect(right.body.error.code).toBe('locked_out');
    expect(sessionCookie(right)).toBeNull();
    const retryAfter = Number(right.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(180);

    clock.advance(2 * MINUTE + 59_000);
    expect((await attempt(id, '2468')).status).toBe(429);

    clock.advance(1_000); // exactly 5 minutes after the lock
    const after = await attempt(id, '2468');
    expect(after.status).toBe(200);
    expect(sessionCookie(after)).not.toBeNull();
  });

  it('starts counting again after a successful sign-in', async () => {
    const id = await newUser('Lock Two', '1357');
    for (let i = 0; i < 4; i++) expect((await attempt(id, '0000')).status).toBe(401);
    expect((await attempt(id, '1357')).status).toBe(200);
    // without the reset this would be the fifth failure, and a lock
    const next = await attempt(id, '0000');
    expect(next.status).toBe(401);
    expect(next.body.error.code).toBe('invalid_pin');
  });

  it('parallel wrong guesses cannot get past the limit', async () => {
    const id = await newUser('Lock Three', '8642');
    const results = await Promise.all(Array.from({ length: 12 }, () => attempt(id, '9999')));
    const codes = results.map((r) => r.body.error?.code);
    expect(codes.filter((c) => c === 'invalid_pin')).toHaveLength(4);
    expect(codes.filter((c) => c === 'locked_out')).toHaveLength(8);
    expect((await attempt(id, '8642')).status).toBe(429);
    // the lock is per profile
    expect((await attempt(s.users.member.id, MEMBER.pin)).status).toBe(200);
  });

  // Same server and clock: these run after the lockout tests and move the clock by weeks.

  it('refreshes the cookie after an hour of use and keeps the session alive past the first 30 days', async () => {
    const c = await s.signIn(s.users.member.id, MEMBER.pin);
    const token = c.cookie!;
    const hash = createHash('sha256').update(token.slice('session='.length)).digest('hex');
    const row = () => s.handle.deps.db('sessions').where({ token_hash: hash }).first();
    const firstExpiry = (await row()).expires_at as string;

    clock.advance(59 * MINUTE);
    const early = await c.get('/api/auth/me');
    expect(early.status).toBe(200);
    expect(sessionCookie(early)).toBeNull(); // not refreshed on every request

    clock.advance(2 * MINUTE);
    const refreshed = await c.get('/api/auth/me');
    expect(refreshed.status).toBe(200);
    const cookie = sessionCookie(refreshed);
    expect(cookie).not.toBeNull();
    expect(`session=${cookie!.value}`).toBe(token); // same session, new lifetime
    expect(Math.abs(Number(cookie!.attrs.get('max-age')) - THIRTY_DAYS_S)).toBeLessThanOrEqual(60);
    expect(cookie!.attrs.has('httponly')).toBe(true);
    expect(new Date((await row()).expires_at).getTime()).toBeGreaterThan(new Date(firstExpiry).getTime());

    // 30 days after sign-in (but less than 30 days after the last use) the session still works
    clock.advance(30 * DAY - 61 * MINUTE + 30 * MINUTE);
    expect((await c.get('/api/auth/me')).status).toBe(200);
  });

  it('ends a session idle for more than 30 days', async () => {
    const c = await s.signIn(s.users.member.id, MEMBER.pin);
    const token = c.cookie!.slice('session='.length);
    const hash = createHash('sha256').update(token).digest('hex');
    clock.advance(30 * DAY + MINUTE);
    const r = await c.get('/api/auth/me');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthenticated');
    expect(await s.handle.deps.db('sessions').where({ token_hash: hash }).first()).toBeUndefined();
  });
});

describe('the cost of a PIN hash', () => {
  const storedHash = async (s: TestServer, userId: string) => ((await s.handle.deps.db('users').where({ id: userId }).first()) as { pin_hash: string }).pin_hash;

  it('a household hashes a new PIN at the real scrypt cost (N 2^15, r 8, p 1)', async () => {
    const s = await startTestServer({ seed: 'household', config: REAL_PIN_COST });
    try {
      const created = await s.admin.post('/api/admin/users', { name: 'Real Cost', pin: '4321' });
      expect(created.status).toBe(201);
      expect(await storedHash(s, created.body.user.id)).toMatch(/^scrypt\$32768\$8\$1\$/);
      expect((await s.anon.post('/api/auth/verify-pin', { userId: created.body.user.id, pin: '4321' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a test server hashes at the low test cost, and signing in with it still checks the PIN', async () => {
    const s = await startTestServer({ seed: 'household' });
    try {
      expect(s.config.pinHashCost).toBe('low');
      const created = await s.admin.post('/api/admin/users', { name: 'Low Cost', pin: '4321' });
      expect(await storedHash(s, created.body.user.id)).toMatch(/^scrypt\$16\$8\$1\$/);
      expect(await storedHash(s, s.users.member.id)).toMatch(/^scrypt\$16\$8\$1\$/);
      expect((await s.anon.post('/api/auth/verify-pin', { userId: created.body.user.id, pin: '0000' })).status).toBe(401);
      expect((await s.anon.post('/api/auth/verify-pin', { userId: created.body.user.id, pin: '4321' })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('restart', () => {
  it('keeps users and sessions when the server restarts on the same data dir', async () => {
    const temp = makeTempDir();
    try {
      const first = await startTestServer({ seed: 'household', config: REAL_PIN_COST, dataDir: temp.dir });
      const adminCookie = first.admin.cookie!;
      const memberCookie = first.member.cookie!;
      const users = first.users;
      await first.close();

      const second = await startTestServer({ seed: 'empty', config: REAL_PIN_COST, dataDir: temp.dir });
      try {
        const admin = new TestClient(second.url, adminCookie);
        const me = await admin.get('/api/auth/me');
        expect(me.status).toBe(200);
        expect(me.body.user.id).toBe(users.admin.id);
        expect((await new TestClient(second.url, memberCookie).get('/api/auth/me')).body.user.id).toBe(users.member.id);
        const profiles = await second.anon.get('/api/auth/profiles');
        expect(profiles.body.profiles.map((p: { id: string }) => p.id).sort()).toEqual([users.admin.id, users.member.id].sort());
        expect((await second.anon.post('/api/auth/verify-pin', { userId: users.member.id, pin: MEMBER.pin })).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      temp.remove();
    }
  });
});
