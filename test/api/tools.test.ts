import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ToolsResponse } from '../../server/modules/tools/schema.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

describe('tools and the app store', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ seed: 'household' });
  });
  afterAll(() => s.close());
  beforeEach(async () => {
    await s.handle.deps.db('tool_settings').delete();
    await s.handle.deps.db('notifications').delete();
  });

  describe('GET /api/tools', () => {
    it('lists the registered tools with every spec field, enabled by default (opt-out)', async () => {
      const r = await s.member.get('/api/tools');
      expect(r.status).toBe(200);
      const { tools } = ToolsResponse.parse(r.body);
      const byId = Object.fromEntries(tools.map((t) => [t.id, t]));
      expect(Object.keys(byId).sort()).toEqual(['archive_search', 'films', 'home_control', 'home_inventory', 'image_gen', 'inventory', 'library', 'maps', 'news', 'offline-maps', 'podcasts', 'reader', 'reader_search', 'remember', 'shopping_list', 'shows', 'today', 'videos', 'weather']);
      // the media hubs (issue 35): Apps on the Listen and Watch pages, each naming every host it contacts
      expect(byId.podcasts).toMatchObject({ offline: false, route: '/listen' });
      expect(byId.shows).toMatchObject({ offline: false, route: '/watch' });
      expect(byId.films).toMatchObject({ offline: false, route: '/watch' });
      expect(byId.podcasts!.dataSources.map((d) => d.domain)).toContain('itunes.apple.com');
      expect(byId.shows!.dataSources.map((d) => d.domain)).toEqual(['api.tvmaze.com', 'static.tvmaze.com']);
      expect(byId.films!.dataSources.map((d) => d.domain)).toEqual(['discover.provider.plex.tv', 'metadata-static.plex.tv', 'api.themoviedb.org', 'image.tmdb.org']);
      expect(byId.reader).toMatchObject({ offline: false, route: '/reader', enabled: true });
      expect(byId.library).toMatchObject({ offline: false, route: '/library', enabled: true });
      expect(byId.inventory).toMatchObject({ offline: false, route: '/inventory', enabled: true });
      expect(byId.videos).toMatchObject({ offline: false, route: '/videos', enabled: true });
      // an Extension: chat-only, no page, fully local
      expect(byId.archive_search).toMatchObject({ offline: true, route: null, dataSources: [], enabled: true });
      expect(byId.reader_search).toMatchObject({ offline: true, route: null, dataSources: [], enabled: true });
      expect(byId.home_inventory).toMatchObject({ offline: true, route: null, dataSources: [], enabled: true });
      for (const t of tools) {
        expect(t.examples.length).toBeGreaterThan(0);
        expect(t.configSchema).toMatchObject({ type: 'object' });
      }
    });

    it('needs a session', async () => {
      expect((await s.anon.get('/api/tools')).status).toBe(401);
    });
  });

  describe('PUT /api/tools/:id/enabled', () => {
    it('stores exactly one "__enabled" row with a JSON boolean, toggled both ways', async () => {
      const off = await s.admin.put('/api/tools/reader/enabled', { enabled: false });
      expect(off.status).toBe(200);
      expect(off.body.tool).toMatchObject({ id: 'reader', enabled: false });
      let rows = await s.handle.deps.db('tool_settings').select('*');
      expect(rows).toEqual([expect.objectContaining({ tool_id: 'reader', key: '__enabled', value: 'false' })]);
      expect((await s.member.get('/api/tools')).body.tools.find((t: any) => t.id === 'reader').enabled).toBe(false);

      await s.admin.put('/api/tools/reader/enabled', { enabled: true });
      rows = await s.handle.deps.db('tool_settings').select('*');
      expect(rows).toEqual([expect.objectContaining({ tool_id: 'reader', key: '__enabled', value: 'true' })]);
      expect((await s.member.get('/api/tools')).body.tools.find((t: any) => t.id === 'reader').enabled).toBe(true);
    });

    it('answers 404 for an unknown tool and 400 for a non-boolean, writing nothing', async () => {
      const unknown = await s.admin.put('/api/tools/nope/enabled', { enabled: false });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('not_found');
      for (const enabled of ['false', 0, null, undefined]) {
        const r = await s.admin.put('/api/tools/reader/enabled', { enabled });
        expect(r.status).toBe(400);
        expect(r.body.error.code).toBe('invalid_request');
      }
      expect(await s.handle.deps.db('tool_settings').select('*')).toEqual([]);
    });

    it('is admin only', async () => {
      const r = await s.member.put('/api/tools/reader/enabled', { enabled: false });
      expect(r.status).toBe(403);
      expect(await s.handle.deps.db('tool_settings').select('*')).toEqual([]);
    });
  });

  describe('POST /api/app-store/request', () => {
    it('creates one admin-targeted install_request with the spec payload', async () => {
      await s.admin.put('/api/tools/reader/enabled', { enabled: false });
      const r = await s.member.post('/api/app-store/request', { toolId: 'reader', toolName: 'Reader', message: 'For school, please' });
      expect(r.status).toBe(201);
      const rows = await s.handle.deps.db('notifications').select('*');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ user_id: null, type: 'install_request', read_at: null });
      expect(JSON.parse(rows[0].payload)).toEqual({
        requestedBy: s.users.member.id,
        requestedByName: 'Sam',
        toolId: 'reader',
        toolName: 'Reader',
        message: 'For school, please',
      });
      // the admins see it; the member does not
      expect((await s.admin.get('/api/notifications/unread-count')).body.unreadCount).toBe(1);
      expect((await s.member.get('/api/notifications/unread-count')).body.unreadCount).toBe(0);
    });

    it('does not pile up: asking again while the request is open returns the same notification', async () => {
      await s.admin.put('/api/tools/reader/enabled', { enabled: false });
      const first = await s.member.post('/api/app-store/request', { toolId: 'reader', toolName: 'Reader' });
      const again = await s.member.post('/api/app-store/request', { toolId: 'reader', toolName: 'Reader' });
      expect(again.status).toBe(200);
      expect(again.body.notificationId).toBe(first.body.notificationId);
      expect(await s.handle.deps.db('notifications').select('id')).toHaveLength(1);
    });

    it('approve = enable + mark read; dismiss = mark read; neither emits install_complete', async () => {
      await s.admin.put('/api/tools/reader/enabled', { enabled: false });
      await s.admin.put('/api/tools/library/enabled', { enabled: false });
      const approve = (await s.member.post('/api/app-store/request', { toolId: 'reader', toolName: 'Reader' })).body.notificationId;
      const dismiss = (await s.member.post('/api/app-store/request', { toolId: 'library', toolName: 'Library' })).body.notificationId;

      await s.admin.put('/api/tools/reader/enabled', { enabled: true });
      await s.admin.patch(`/api/notifications/${approve}/read`);
      await s.admin.patch(`/api/notifications/${dismiss}/read`);

      const tools = (await s.member.get('/api/tools')).body.tools;
      expect(tools.find((t: any) => t.id === 'reader').enabled).toBe(true);
      expect(tools.find((t: any) => t.id === 'library').enabled).toBe(false);
      const rows = await s.handle.deps.db('notifications').select('type', 'read_at');
      expect(rows.map((r: any) => r.type)).toEqual(['install_request', 'install_request']);
      expect(rows.every((r: any) => r.read_at !== null)).toBe(true);
    });

    it('validates the body, the tool and its state', async () => {
      expect((await s.member.post('/api/app-store/request', { toolName: 'Reader' })).status).toBe(400);
      expect((await s.member.post('/api/app-store/request', { toolId: 'reader', toolName: 'Reader', message: 'x'.repeat(501) })).status).toBe(400);
      expect((await s.member.post('/api/app-store/request', { toolId: 'nope', toolName: 'Nope' })).status).toBe(404);
      const installed = await s.member.post('/api/app-store/request', { toolId: 'reader', toolName: 'Reader' });
      expect(installed.status).toBe(409);
      expect(installed.body.error.code).toBe('already_installed');
      expect(await s.handle.deps.db('notifications').select('id')).toHaveLength(0);
      expect((await s.anon.post('/api/app-store/request', { toolId: 'reader', toolName: 'Reader' })).status).toBe(401);
    });
  });
});
