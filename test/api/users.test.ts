import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../harness/client.js';
import { ADMIN, MEMBER, REAL_PIN_COST, startTestServer, type TestServer } from '../harness/start-server.js';

describe('/api/admin/users', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST });
  });
  afterAll(() => s.close());

  const create = async (name: string, pin: string, role: 'admin' | 'member' = 'member') => {
    const r = await s.admin.post('/api/admin/users', { name, pin, role });
    expect(r.status, r.text).toBe(201);
    return r.body.user as { id: string; name: string; role: string };
  };
  const count = async (table: string, userId: string) => Number((await s.handle.deps.db(table).where({ user_id: userId }).count({ n: '*' }).first())!.n);

  describe('GET', () => {
    it('lists the household', async () => {
      const r = await s.admin.get('/api/admin/users');
      expect(r.status).toBe(200);
      const ids = r.body.users.map((u: { id: string }) => u.id);
      expect(ids).toEqual(expect.arrayContaining([s.users.admin.id, s.users.member.id]));
    });
  });

  describe('POST', () => {
    it('creates a member who can then sign in with their PIN', async () => {
      const r = await s.admin.post('/api/admin/users', { name: 'Robin', pin: '2580' });
      expect(r.status).toBe(201);
      expect(r.body.user).toMatchObject({ id: expect.any(String), name: 'Robin', role: 'member' });
      const profiles = await s.anon.get('/api/auth/profiles');
      expect(profiles.body.profiles.map((p: { name: string }) => p.name)).toContain('Robin');
      const signIn = await new TestClient(s.url).post('/api/auth/verify-pin', { userId: r.body.user.id, pin: '2580' });
      expect(signIn.status).toBe(200);
      expect(signIn.body.user.role).toBe('member');
    });

    it('creates an admin when asked', async () => {
      const u = await create('Jordan', '1470', 'admin');
      expect(u.role).toBe('admin');
    });

    it.each(['sam', '  SAM  '])('answers 409 name_taken for %j (names are unique ignoring case)', async (name) => {
      const r = await s.admin.post('/api/admin/users', { name, pin: '1111' });
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('name_taken');
    });

    it('answers 400 with details for a bad body', async () => {
      const r = await s.admin.post('/api/admin/users', { name: '', pin: '1234', role: 'owner' });
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      const paths = r.body.error.details.map((d: { path: string }) => d.path);
      expect(paths).toEqual(expect.arrayContaining(['name', 'role']));
    });
  });

  describe('PATCH /:id', () => {
    it('renames a member', async () => {
      const u = await create('Casey', '3690');
      const r = await s.admin.patch(`/api/admin/users/${u.id}`, { name: 'Casey Jr' });
      expect(r.status).toBe(200);
      expect(r.body.user).toMatchObject({ id: u.id, name: 'Casey Jr', role: 'member' });
      const profiles = await s.anon.get('/api/auth/profiles');
      expect(profiles.body.profiles.find((p: { id: string }) => p.id === u.id).name).toBe('Casey Jr');
    });

    it('refuses a rename onto another name in a different case (409 name_taken) but allows re-casing one\'s own', async () => {
      const u = await create('Drew', '1593');
      const taken = await s.admin.patch(`/api/admin/users/${u.id}`, { name: ADMIN.name.toUpperCase() });
      expect(taken.status).toBe(409);
      expect(taken.body.error.code).toBe('name_taken');
      const recased = await s.admin.patch(`/api/admin/users/${u.id}`, { name: 'DREW' });
      expect(recased.status).toBe(200);
      expect(recased.body.user.name).toBe('DREW');
    });

    it('changes a PIN: the old one fails, the new one works, their other sessions are signed out', async () => {
      const u = await create('Emery', '1111');
      const phone = await s.signIn(u.id, '1111');
      const laptop = await s.signIn(u.id, '1111');
      expect((await phone.get('/api/auth/me')).status).toBe(200);

      const r = await s.admin.patch(`/api/admin/users/${u.id}`, { pin: '2222' });
      expect(r.status).toBe(200);
      expect((await phone.get('/api/auth/me')).status).toBe(401);
      expect((await laptop.get('/api/auth/me')).status).toBe(401);
      expect(await count('sessions', u.id)).toBe(0);

      const old = await new TestClient(s.url).post('/api/auth/verify-pin', { userId: u.id, pin: '1111' });
      expect(old.status).toBe(401);
      expect(old.body.error.code).toBe('invalid_pin');
      expect((await new TestClient(s.url).post('/api/auth/verify-pin', { userId: u.id, pin: '2222' })).status).toBe(200);
    });

    it('an admin changing their own PIN stays signed in here but is signed out on their other devices', async () => {
      const u = await create('Finley', '4444', 'admin');
      const here = await s.signIn(u.id, '4444');
      const elsewhere = await s.signIn(u.id, '4444');
      const r = await here.patch(`/api/admin/users/${u.id}`, { pin: '5555' });
      expect(r.status).toBe(200);
      expect((await here.get('/api/auth/me')).status).toBe(200);
      expect((await elsewhere.get('/api/auth/me')).status).toBe(401);
    });

    it('changes a role, and the change applies to existing sessions at once', async () => {
      const u = await create('Gray', '7777');
      const c = await s.signIn(u.id, '7777');
      expect((await c.get('/api/admin/users')).status).toBe(403);

      const up = await s.admin.patch(`/api/admin/users/${u.id}`, { role: 'admin' });
      expect(up.status).toBe(200);
      expect(up.body.user.role).toBe('admin');
      expect((await c.get('/api/admin/users')).status).toBe(200);

      const down = await s.admin.patch(`/api/admin/users/${u.id}`, { role: 'member' });
      expect(down.body.user.role).toBe('member');
      expect((await c.get('/api/admin/users')).status).toBe(403);
      expect((await c.get('/api/auth/me')).body.user.role).toBe('member');
    });

    it('answers 400 when there is nothing to change', async () => {
      const r = await s.admin.patch(`/api/admin/users/${s.users.member.id}`, {});
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    });
  });

  describe('DELETE /:id', () => {
    it('deletes a member with their sessions and preferences', async () => {
      const u = await create('Harper', '8888');
      const c = await s.signIn(u.id, '8888');
      await s.handle.deps.preferences.set(u.id, 'home.layout.locked', true);
      await s.handle.deps.preferences.set(u.id, 'theme', 'dark');
      expect(await count('sessions', u.id)).toBe(1);
      expect(await count('user_preferences', u.id)).toBe(2);

      const r = await s.admin.delete(`/api/admin/users/${u.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true });
      expect(await count('sessions', u.id)).toBe(0);
      expect(await count('user_preferences', u.id)).toBe(0);
      expect(await s.handle.deps.db('users').where({ id: u.id }).first()).toBeUndefined();
      expect((await c.get('/api/auth/me')).status).toBe(401);
      const profiles = await s.anon.get('/api/auth/profiles');
      expect(profiles.body.profiles.map((p: { id: string }) => p.id)).not.toContain(u.id);
      expect((await s.admin.delete(`/api/admin/users/${u.id}`)).status).toBe(404);
    });
  });

  describe('unknown id', () => {
    it.each(['patch', 'delete'] as const)('%s answers 404 not_found', async (method) => {
      const r = method === 'patch' ? await s.admin.patch('/api/admin/users/no-such-id', { name: 'Nobody' }) : await s.admin.delete('/api/admin/users/no-such-id');
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    });
  });

  describe('members', () => {
    it('get 403 forbidden on every /api/admin/users route, and nothing changes', async () => {
      const before = await s.handle.deps.db('users').select('id', 'name', 'role', 'pin_hash').orderBy('id');
      const attempts = [
        await s.member.get('/api/admin/users'),
        await s.member.post('/api/admin/users', { name: 'Intruder', pin: '1234', role: 'admin' }),
        await s.member.patch(`/api/admin/users/${s.users.member.id}`, { role: 'admin' }),
        await s.member.patch(`/api/admin/users/${s.users.admin.id}`, { pin: '0000' }),
        await s.member.delete(`/api/admin/users/${s.users.admin.id}`),
        await s.member.delete('/api/admin/users/no-such-id'),
      ];
      for (const r of attempts) {
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe('forbidden');
      }
      expect(await s.handle.deps.db('users').select('id', 'name', 'role', 'pin_hash').orderBy('id')).toEqual(before);
    });
  });

  describe('profile names', () => {
    it('keeps unicode names as typed', async () => {
      const r = await s.admin.post('/api/admin/users', { name: 'Zoë 🦊', pin: '1234' });
      expect(r.status).toBe(201);
      expect(r.body.user.name).toBe('Zoë 🦊');
      const profiles = await s.anon.get('/api/auth/profiles');
      expect(profiles.body.profiles.map((p: { name: string }) => p.name)).toContain('Zoë 🦊');
    });

    it('refuses a name that only differs in the case of a non-ASCII letter', async () => {
      expect((await s.admin.post('/api/admin/users', { name: 'Émile', pin: '1234' })).status).toBe(201);
      const r = await s.admin.post('/api/admin/users', { name: 'émile', pin: '1234' });
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('name_taken');
      // the same name typed with a combining accent (NFD) is still the same name
      const decomposed = await s.admin.post('/api/admin/users', { name: 'E\u0301mile', pin: '1234' });
      expect(decomposed.status).toBe(409);
    });

    it('refuses control characters, invisible and over-long names', async () => {
      // a bidi override would make "\u202emaS" show as "Sam" on the picker
      for (const name of ['Tab\tName', 'a'.repeat(41), '   ', '\u200b', '\u200b\u200d\u2060', '\u0301', `\u202e${MEMBER.name.split('').reverse().join('')}`, 'Sam\u0085']) {
        const r = await s.admin.post('/api/admin/users', { name, pin: '1234' });
        expect(r.status, JSON.stringify(name)).toBe(400);
        expect(r.body.error.details[0].path).toBe('name');
      }
    });

    it('keeps emoji sequences joined with ZWJ', async () => {
      const r = await s.admin.post('/api/admin/users', { name: 'Family 👨\u200d👩\u200d👧', pin: '1234' });
      expect(r.status).toBe(201);
      expect(r.body.user.name).toBe('Family 👨\u200d👩\u200d👧');
    });
  });
});

describe('the last admin', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', config: REAL_PIN_COST });
  });
  afterAll(() => s.close());
  const admins = async () => Number((await s.handle.deps.db('users').where({ role: 'admin' }).count({ n: '*' }).first())!.n);

  it('cannot be deleted or demoted: 409 last_admin', async () => {
    const del = await s.admin.delete(`/api/admin/users/${s.users.admin.id}`);
    expect(del.status).toBe(409);
    expect(del.body.error.code).toBe('last_admin');
    const demote = await s.admin.patch(`/api/admin/users/${s.users.admin.id}`, { role: 'member' });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('last_admin');
    expect(await admins()).toBe(1);
    expect((await s.admin.get('/api/auth/me')).body.user.role).toBe('admin');
  });

  it('with two admins, one can be demoted, and then the other is the last', async () => {
    const promote = await s.admin.patch(`/api/admin/users/${s.users.member.id}`, { role: 'admin' });
    expect(promote.status).toBe(200);
    const demote = await s.admin.patch(`/api/admin/users/${s.users.admin.id}`, { role: 'member' });
    expect(demote.status).toBe(200);
    expect(demote.body.user.role).toBe('member');
    // Sam is now the only admin
    const self = await s.member.delete(`/api/admin/users/${s.users.member.id}`);
    expect(self.status).toBe(409);
    expect(self.body.error.code).toBe('last_admin');
    expect((await s.member.patch(`/api/admin/users/${s.users.member.id}`, { role: 'member' })).body.error.code).toBe('last_admin');
    // restore Alex for the next test
    expect((await s.member.patch(`/api/admin/users/${s.users.admin.id}`, { role: 'admin' })).status).toBe(200);
    expect(await admins()).toBe(2);
  });

  it('two admins demoting each other at once leave exactly one admin', async () => {
    expect(await admins()).toBe(2);
    const [a, b] = await Promise.all([
      s.admin.patch(`/api/admin/users/${s.users.member.id}`, { role: 'member' }),
      s.member.patch(`/api/admin/users/${s.users.admin.id}`, { role: 'member' }),
    ]);
    expect([a.status, b.status].filter((x) => x === 200)).toHaveLength(1);
    expect([a.status, b.status].filter((x) => x !== 200).every((x) => x === 409 || x === 403)).toBe(true);
    expect(await admins()).toBe(1);
  });
});
