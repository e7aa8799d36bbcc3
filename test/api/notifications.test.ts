import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotificationsResponse } from '../../server/modules/notifications/schema.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('notifications', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    await s.handle.deps.db('notifications').delete();
  });

  const post = (body: unknown) => s.admin.post('/api/notifications', body);

  describe('POST /api/notifications (admin)', () => {
    it('creates any type, admin-targeted by default', async () => {
      for (const type of ['install_request', 'install_complete', 'download_complete', 'system']) {
        const r = await post({ type, payload: { title: type } });
        expect(r.status).toBe(201);
        expect(r.body.notification).toMatchObject({ type, userId: null, readAt: null, payload: { title: type } });
      }
      const rows = await s.handle.deps.db('notifications').select('user_id', 'payload');
      expect(rows).toHaveLength(4);
      expect(rows.every((r: { user_id: string | null }) => r.user_id === null)).toBe(true);
      // stored as a JSON string
      expect(typeof rows[0].payload).toBe('string');
    });

    it('defaults the payload to {} and rejects unknown types, bad payloads and unknown users', async () => {
      const r = await post({ type: 'system' });
      expect(r.status).toBe(201);
      const row = await s.handle.deps.db('notifications').where({ id: r.body.notification.id }).first();
      expect(row.payload).toBe('{}');
      expect((await post({ type: 'party' })).status).toBe(400);
      expect((await post({ type: 'system', payload: [1, 2] })).status).toBe(400);
      const unknown = await post({ type: 'system', userId: 'no-such-user' });
      expect(unknown.status).toBe(404);
      expect(await s.handle.deps.db('notifications').count({ n: '*' }).first()).toEqual({ n: 1 });
    });

    it('is admin only', async () => {
      const r = await s.member.post('/api/notifications', { type: 'system' });
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
      expect((await s.anon.post('/api/notifications', { type: 'system' })).status).toBe(401);
    });
  });

  describe('visibility (a privacy boundary)', () => {
    it('a member sees only their own rows; an admin also sees admin-targeted rows', async () => {
      await post({ type: 'system', payload: { n: 'to admins' } });
      await post({ type: 'system', userId: s.users.member.id, payload: { n: 'to member' } });
      await post({ type: 'system', userId: s.users.admin.id, payload: { n: 'to admin' } });

      const m = await s.member.get('/api/notifications');
      expect(m.status).toBe(200);
      NotificationsResponse.parse(m.body);
      expect(m.body.notifications.map((n: any) => n.payload.n)).toEqual(['to member']);
      expect(m.body.unreadCount).toBe(1);

      const a = await s.admin.get('/api/notifications');
      expect(a.body.notifications.map((n: any) => n.payload.n).sort()).toEqual(['to admin', 'to admins']);
      expect(a.body.unreadCount).toBe(2);
    });

    it("a member can neither mark an admin-targeted row nor another user's row (404), and read-all leaves them alone", async () => {
      const toAdmins = (await post({ type: 'system' })).body.notification.id;
      const toAdmin = (await post({ type: 'system', userId: s.users.admin.id })).body.notification.id;
      for (const id of [toAdmins, toAdmin]) {
        const r = await s.member.patch(`/api/notifications/${id}/read`);
        expect(r.status).toBe(404);
        expect(r.body.error.code).toBe('not_found');
      }
      expect((await s.member.post('/api/notifications/read-all')).status).toBe(200);
      const rows = await s.handle.deps.db('notifications').whereNotNull('read_at');
      expect(rows).toHaveLength(0);
      expect((await s.admin.get('/api/notifications/unread-count')).body.unreadCount).toBe(2);
    });

    it("an admin cannot mark a member's own row", async () => {
      const id = (await post({ type: 'system', userId: s.users.member.id })).body.notification.id;
      expect((await s.admin.patch(`/api/notifications/${id}/read`)).status).toBe(404);
      expect((await s.member.get('/api/notifications/unread-count')).body.unreadCount).toBe(1);
    });

    it('marks one read, then all visible read', async () => {
      const a = (await post({ type: 'system' })).body.notification.id;
      await post({ type: 'system' });
      await post({ type: 'system', userId: s.users.admin.id });
      const one = await s.admin.patch(`/api/notifications/${a}/read`);
      expect(one.status).toBe(200);
      expect(one.body.notification.readAt).toEqual(expect.any(String));
      expect((await s.admin.get('/api/notifications/unread-count')).body).toEqual({ unreadCount: 2 });
      const all = await s.admin.post('/api/notifications/read-all');
      expect(all.body.marked).toBe(2);
      expect((await s.admin.get('/api/notifications/unread-count')).body).toEqual({ unreadCount: 0 });
      expect((await s.admin.patch('/api/notifications/nope/read')).status).toBe(404);
    });
  });

  it('returns the latest 50, newest first, with the full unread count', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({
      id: `n-${String(i).padStart(3, '0')}`,
      user_id: s.users.member.id,
      type: 'system',
      payload: JSON.stringify({ i }),
      read_at: null,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }));
    await s.handle.deps.db('notifications').insert(rows);
    const r = await s.member.get('/api/notifications');
    expect(r.body.notifications).toHaveLength(50);
    expect(r.body.notifications[0].payload.i).toBe(59);
    expect(r.body.notifications[49].payload.i).toBe(10);
    expect(r.body.unreadCount).toBe(60);
  });

  it('counts unread with one statement of primary-key lookups that never reads the notifications', async () => {
    const store = (s.handle.deps.notifications as any).deps.store;
    for (const isAdmin of [true, false]) {
      const { sql, bindings } = store.countUnreadSql({ userId: s.users.admin.id, isAdmin });
      const plan = (await s.handle.deps.db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings)) as Array<{ detail: string }>;
      const details = plan.map((p) => p.detail);
      // the cost does not grow with the notifications: one counter row per audience part
      expect(details.filter((d) => /\bnotifications\b/.test(d))).toEqual([]);
      const reads = details.filter((d) => /notification_unread_counts/.test(d));
      expect(reads).toHaveLength(isAdmin ? 2 : 1);
      for (const d of reads) expect(d).toMatch(/^SEARCH notification_unread_counts USING PRIMARY KEY \(audience=\?\)/);
    }
  });

  it('keeps the unread count exact through creating, reading, re-targeting and deleting rows', async () => {
    const other = (await s.admin.post('/api/admin/users', { name: 'Robin', pin: '1357', role: 'member' })).body.user;
    const count = async () => ({
      admin: (await s.admin.get('/api/notifications/unread-count')).body.unreadCount,
      member: (await s.member.get('/api/notifications/unread-count')).body.unreadCount,
    });
    // what the count must be, from the rows themselves
    const truth = async () => {
      const unread = (userId: string | null) => s.handle.deps.db('notifications').whereNull('read_at').where((w) => (userId ? w.where({ user_id: userId }) : w.whereNull('user_id')));
      const n = async (q: ReturnType<typeof unread>) => Number(((await q.count({ n: '*' }).first()) as { n: number }).n);
      return { admin: (await n(unread(s.users.admin.id))) + (await n(unread(null))), member: await n(unread(s.users.member.id)) };
    };
    const ids: string[] = [];
    for (const userId of [null, null, s.users.member.id, s.users.member.id, s.users.admin.id, other.id]) ids.push((await post({ type: 'system', userId })).body.notification.id);
    expect(await count()).toEqual({ admin: 3, member: 2 });
    expect(await count()).toEqual(await truth());
    expect((await s.member.patch(`/api/notifications/${ids[2]}/read`)).status).toBe(200);
    expect((await s.member.patch(`/api/notifications/${ids[2]}/read`)).status).toBe(200); // twice: counted once
    expect(await count()).toEqual({ admin: 3, member: 1 });
    expect((await s.admin.post('/api/notifications/read-all')).body.marked).toBe(3);
    expect(await count()).toEqual({ admin: 0, member: 1 });
    // rows changed behind the API (re-targeted, marked unread again, deleted) stay counted right
    await s.handle.deps.db('notifications').where({ id: ids[0] }).update({ read_at: null, user_id: s.users.member.id });
    expect(await count()).toEqual({ admin: 0, member: 2 });
    await s.handle.deps.db('notifications').where({ id: ids[3] }).delete();
    expect(await count()).toEqual({ admin: 0, member: 1 });
    expect(await count()).toEqual(await truth());
    // a user's cascade delete takes their unread rows out of the counters too
    await s.admin.post('/api/notifications', { type: 'system', userId: other.id });
    expect((await s.admin.delete(`/api/admin/users/${other.id}`)).status).toBe(200);
    const left = await s.handle.deps.db('notification_unread_counts').where({ audience: other.id }).first();
    expect(left?.n ?? 0).toBe(0);
  });

  it("deleting a user deletes their notifications", async () => {
    const other = await s.admin.post('/api/admin/users', { name: 'Kit', pin: '2468', role: 'member' });
    await post({ type: 'system', userId: other.body.user.id });
    expect((await s.admin.delete(`/api/admin/users/${other.body.user.id}`)).status).toBe(200);
    expect(await s.handle.deps.db('notifications').where({ user_id: other.body.user.id })).toHaveLength(0);
  });
});
