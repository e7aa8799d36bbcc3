import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LayoutResponse } from '../../server/modules/home-layout/schema.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const layout = (over: Partial<{ header: object; canvas: unknown[] }> = {}) => ({
  header: { weather: false, jokes: true, sports: false, locked: false },
  canvas: [
    { id: 'r1', cols: [{ toolId: 'reader', colSpan: 1 }, { toolId: 'library', colSpan: 1 }] },
    { id: 'r2', cols: [{ toolId: 'library', colSpan: 2 }] },
  ],
  ...over,
});

describe('home layout', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    await s.handle.deps.db('user_preferences').delete();
    await s.handle.deps.db('app_settings').where('key', 'like', 'home.%').delete();
  });

  const prefs = (userId: string) => s.handle.deps.preferences.list(userId);

  it('falls back to the shipped default, then to the admin-set default', async () => {
    const first = await s.member.get('/api/home-layout');
    expect(first.status).toBe(200);
    LayoutResponse.parse(first.body);
    expect(first.body).toMatchObject({ locked: false, custom: false });
    expect(first.body.layout.canvas.length).toBeGreaterThan(0);

    const custom = layout({ canvas: [{ id: 'only', cols: [{ toolId: 'reader', colSpan: 2 }] }] });
    expect((await s.admin.put('/api/home-layout/default', custom)).status).toBe(200);
    expect((await s.admin.get('/api/home-layout/default')).body.layout).toEqual(custom);
    expect(await s.handle.deps.settings.get('home.layout.default')).toEqual(custom);
    expect((await s.member.get('/api/home-layout')).body.layout).toEqual(custom);
  });

  it("saves the caller's layout under home.layout", async () => {
    const mine = layout();
    const r = await s.member.put('/api/home-layout', mine);
    expect(r.status).toBe(200);
    expect(await prefs(s.users.member.id)).toEqual({ 'home.layout': mine });
    expect((await s.member.get('/api/home-layout')).body).toEqual({ layout: mine, locked: false, custom: true });
    // the admin's own layout is untouched
    expect((await s.admin.get('/api/home-layout')).body.custom).toBe(false);
  });

  it('validates the whole shape: colSpan 1 or 2, at most 2 per row, booleans in the header', async () => {
    const bad = [
      layout({ canvas: [{ id: 'r', cols: [{ toolId: 'reader', colSpan: 3 }] }] }),
      layout({ canvas: [{ id: 'r', cols: [{ toolId: 'reader', colSpan: 0 }] }] }),
      layout({ canvas: [{ id: 'r', cols: [{ toolId: 'reader', colSpan: 2 }, { toolId: 'library', colSpan: 1 }] }] }),
      layout({ canvas: [{ id: 'r', cols: [{ toolId: 'a', colSpan: 1 }, { toolId: 'b', colSpan: 1 }, { toolId: 'c', colSpan: 1 }] }] }),
      layout({ canvas: [{ id: 'r', cols: [] }, { id: 'r', cols: [] }] }),
      layout({ header: { weather: 'yes', jokes: true, sports: false, locked: false } }),
      layout({ header: { weather: true } }),
      { ...layout(), extra: 1 },
      { canvas: [] },
      [],
    ];
    for (const body of bad) {
      const r = await s.member.put('/api/home-layout', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
      expect(r.body.error.details.length).toBeGreaterThan(0);
    }
    expect(await prefs(s.users.member.id)).toEqual({});
  });

  it('rejects a layout over 64 KB with 413 and leaves the stored layout untouched', async () => {
    const saved = layout();
    await s.member.put('/api/home-layout', saved);
    const huge = layout({ canvas: Array.from({ length: 90 }, (_, i) => ({ id: `r${i}`, cols: [{ toolId: 'x'.repeat(100) + i, colSpan: 2 }] })) });
    huge.header = { ...huge.header, pad: 'y'.repeat(60 * 1024) } as never;
    expect(JSON.stringify(huge).length).toBeGreaterThan(64 * 1024);
    const r = await s.member.put('/api/home-layout', huge);
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('payload_too_large');
    expect((await s.member.get('/api/home-layout')).body.layout).toEqual(saved);
    // the admin routes share the cap
    expect((await s.admin.put('/api/home-layout/default', huge)).status).toBe(413);
    expect((await s.admin.put(`/api/home-layout/users/${s.users.member.id}`, { layout: huge })).status).toBe(413);
  });

  describe('lock', () => {
    it('an admin locks a member: the member gets 403 layout_locked and nothing changes; unlock restores', async () => {
      const before = layout();
      await s.member.put('/api/home-layout', before);
      const lock = await s.admin.put(`/api/home-layout/users/${s.users.member.id}`, { locked: true });
      expect(lock.status).toBe(200);
      expect(lock.body.locked).toBe(true);
      expect(await s.handle.deps.preferences.get(s.users.member.id, 'home.layout.locked')).toBe(true);
      expect((await s.member.get('/api/home-layout')).body.locked).toBe(true);

      const r = await s.member.put('/api/home-layout', layout({ canvas: [] }));
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('layout_locked');
      expect((await s.member.get('/api/home-layout')).body.layout).toEqual(before);

      await s.admin.put(`/api/home-layout/users/${s.users.member.id}`, { locked: false });
      expect((await s.member.put('/api/home-layout', layout({ canvas: [] }))).status).toBe(200);
    });

    it("an admin sets a member's layout, and null resets it to the default", async () => {
      const theirs = layout({ canvas: [{ id: 'x', cols: [{ toolId: 'library', colSpan: 1 }] }] });
      const set = await s.admin.put(`/api/home-layout/users/${s.users.member.id}`, { layout: theirs, locked: true });
      expect(set.body).toEqual({ layout: theirs, locked: true, custom: true });
      expect((await s.admin.get(`/api/home-layout/users/${s.users.member.id}`)).body).toEqual({ layout: theirs, locked: true, custom: true });
      const reset = await s.admin.put(`/api/home-layout/users/${s.users.member.id}`, { layout: null });
      expect(reset.body.custom).toBe(false);
      expect(reset.body.locked).toBe(true);
    });

    it('an unknown user is 404, checked before anything is written', async () => {
      const r = await s.admin.put('/api/home-layout/users/ghost', { layout: layout(), locked: true });
      expect(r.status).toBe(404);
      expect(await s.handle.deps.db('user_preferences').where({ user_id: 'ghost' })).toEqual([]);
      expect((await s.admin.get('/api/home-layout/users/ghost')).status).toBe(404);
      expect((await s.admin.put(`/api/home-layout/users/${s.users.member.id}`, {})).status).toBe(400);
    });

    it('admin routes answer 403 to members and 401 to anonymous callers', async () => {
      for (const [method, path] of [
        ['get', '/api/home-layout/default'],
        ['put', '/api/home-layout/default'],
        ['get', `/api/home-layout/users/${s.users.admin.id}`],
        ['put', `/api/home-layout/users/${s.users.admin.id}`],
      ] as const) {
        const body = method === 'put' ? layout() : undefined;
        expect((await (s.member as any)[method](path, body)).status).toBe(403);
        expect((await (s.anon as any)[method](path, body)).status).toBe(401);
      }
    });
  });

  describe('legacy home.highlights migration (read time)', () => {
    it('folds sports and jokes over the default header until the user saves a layout', async () => {
      const def = layout({ header: { weather: true, jokes: false, sports: false, locked: false } });
      await s.admin.put('/api/home-layout/default', def);
      await s.handle.deps.preferences.set(s.users.member.id, 'home.highlights', { sports: true, jokes: true });

      const migrated = await s.member.get('/api/home-layout');
      expect(migrated.body.layout.header).toEqual({ weather: true, jokes: true, sports: true, locked: false });
      expect(migrated.body.layout.canvas).toEqual(def.canvas);
      // read-time only: nothing written, and the household default is unchanged
      expect(await prefs(s.users.member.id)).toEqual({ 'home.highlights': { sports: true, jokes: true } });
      expect((await s.admin.get('/api/home-layout/default')).body.layout).toEqual(def);

      const saved = layout({ header: { weather: false, jokes: false, sports: false, locked: false } });
      await s.member.put('/api/home-layout', saved);
      expect((await s.member.get('/api/home-layout')).body.layout.header).toEqual(saved.header);
    });

    it('ignores a malformed legacy value', async () => {
      await s.handle.deps.preferences.set(s.users.member.id, 'home.highlights', 'sports please');
      const r = await s.member.get('/api/home-layout');
      expect(r.status).toBe(200);
      expect(r.body.layout.header.sports).toBe(false);
    });
  });
});
