// What a signed-in request costs the database (issue 13: the unread count answered at 0.46x of a
// route with no database work). Prepared statements are kept per SQL text; a device's repeated
// requests reuse its resolved session and unread count while nothing wrote the tables they come
// from, and any such write (sign-out, deleted or demoted member, new notification) is seen by the
// very next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/db/connection.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('the database work of a request', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());

  /** The statements the server runs while answering `request`. */
  async function statementsOf(request: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    s.handle.deps.db.on('query', listener);
    try {
      await request();
    } finally {
      s.handle.deps.db.off('query', listener);
    }
    return seen;
  }

  it("a device's repeated unread-count polls run no statement until something changes, then one", async () => {
    expect((await s.member.get('/api/notifications/unread-count')).status).toBe(200);
    let count = 0;
    // neither the session nor the count is looked up again while nothing wrote them
    expect(await statementsOf(async () => (count = (await s.member.get('/api/notifications/unread-count')).body.unreadCount))).toEqual([]);
    expect((await s.admin.post('/api/notifications', { type: 'system', userId: s.users.member.id })).status).toBe(201);
    const after = await statementsOf(async () => expect((await s.member.get('/api/notifications/unread-count')).body.unreadCount).toBe(count + 1));
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/notification_unread_counts/);
  });

  it('sees a sign-out, a demotion and a deleted member on the very next request', async () => {
    const kit = (await s.admin.post('/api/admin/users', { name: 'Kit', pin: '2468', role: 'admin' })).body.user;
    const c = await s.signIn(kit.id, '2468');
    const other = await s.signIn(kit.id, '2468');
    expect((await c.get('/api/admin/users')).status).toBe(200);
    expect((await c.get('/api/admin/users')).status).toBe(200);

    expect((await s.admin.patch(`/api/admin/users/${kit.id}`, { role: 'member' })).status).toBe(200);
    expect((await c.get('/api/admin/users')).status).toBe(403);
    expect((await c.get('/api/auth/me')).body.user.role).toBe('member');

    const cookie = c.cookie;
    expect((await c.post('/api/auth/logout')).status).toBe(200);
    expect((await s.anon.get('/api/auth/me', { headers: { cookie: cookie! } })).status).toBe(401);

    expect((await other.get('/api/auth/me')).status).toBe(200);
    expect((await s.admin.delete(`/api/admin/users/${kit.id}`)).status).toBe(200);
    expect((await other.get('/api/auth/me')).status).toBe(401);
  });

  it('keeps one prepared statement per SQL text, never hands out one that is mid-iteration, and follows schema changes', async () => {
    const db = createDb(':memory:');
    try {
      const conn = (await db.client.acquireConnection()) as { prepare(sql: string): { iterate(): Iterator<unknown> } };
      db.client.releaseConnection(conn);
      expect(conn.prepare('SELECT 1 AS n')).toBe(conn.prepare('SELECT 1 AS n'));
      const iterating = conn.prepare('SELECT 2 AS n');
      const rows = iterating.iterate();
      rows.next();
      expect(conn.prepare('SELECT 2 AS n')).not.toBe(iterating);
      rows.return?.();

      await db.raw('CREATE TABLE t (a INTEGER)');
      await db('t').insert({ a: 1 });
      expect(await db('t').select('*')).toEqual([{ a: 1 }]);
      await db.raw('ALTER TABLE t ADD COLUMN b TEXT');
      expect(await db('t').select('*')).toEqual([{ a: 1, b: null }]);
    } finally {
      await db.destroy();
    }
  });
});
