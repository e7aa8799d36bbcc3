// Members' private libraries (the spec's export, rule 3) against the fake Plex: storage locations
// (CRUD, the folder checked, removal refused while a library uses it), the path-mapping check (the
// server browses the mapped folder and sees Hearth's marker file), provisioning in rule 3's order
// with its refusals, the queue's statuses up to ready, the section as the server has it, a
// member's own sections and policies, and a queue that carries on after a restart.
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMediaServerGuard, createPlexServerClient } from '../../server/adapters/media-server/plex.js';
import type { MediaConnection, SharedServer } from '../../server/modules/media-server/parts.js';
import { startFakeMediaServer, TOKENS, type FakeMediaServer } from '../fakes/media-server.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makeTempDir } from '../harness/temp-dir.js';

const SERVER_ROOT = '/srv/plex-media/hearth';

/**
 * The shared connection as the connection part will give it (a stand-in here: an admin-configured
 * server at the fake's URL with the owner's token), switchable off to test "not connected".
 */
function fakeConnection(fake: FakeMediaServer): MediaConnection & { connected: boolean; unlinked: Set<string>; close(): Promise<void> } {
  const guard = createMediaServerGuard(fake.url);
  const client = createPlexServerClient({ baseUrl: fake.url, guard, client: { clientIdentifier: 'hearth-test', product: 'Hearth', version: '0', platform: 'Linux', device: 'Hearth', deviceName: 'Hearth' } });
  const shared: SharedServer = { client, token: TOKENS.admin, machineIdentifier: fake.machineIdentifier, name: 'Living Room Plex' };
  const c = {
    connected: true,
    shared: async () => (c.connected ? shared : null),
    /** Members who have not linked a Plex account (provisioning waits for them); everyone else has. */
    unlinked: new Set<string>(),
    memberToken: async (userId: string): Promise<string | null> => (c.unlinked.has(userId) ? null : 'linked-in-test'),
    memberServerToken: async () => null,
    reportMemberUnauthorized: async () => undefined,
    reportShared: async () => undefined,
    close: () => guard.close(),
  };
  return c;
}

describe('media export: storage locations and provisioning', () => {
  let s: TestServer;
  let fake: FakeMediaServer;
  let conn: ReturnType<typeof fakeConnection>;
  const temp = makeTempDir();
  const store = path.join(temp.dir, 'media');
  const dataDir = path.join(temp.dir, 'data');

  const start = async (refreshMs: number, seed: 'household' | 'empty' = 'household') => {
    fake.settings.refreshMs = refreshMs;
    return startTestServer({ seed, dataDir, overrides: { mediaConnection: conn, tuning: { mediaScanPollMs: 20 } }, config: { fetchAllowOrigins: [fake.url] } });
  };

  beforeAll(async () => {
    mkdirSync(dataDir, { recursive: true });
    fake = await startFakeMediaServer({ refreshMs: 30 });
    conn = fakeConnection(fake);
    s = await start(30);
  });
  afterAll(async () => {
    await s.close();
    await conn.close();
    await fake.close();
    temp.remove();
  });
  beforeEach(() => {
    conn.connected = true;
  });

  const locations = () => s.handle.deps.db('media_storage_locations').delete();

  describe('storage locations', () => {
    beforeEach(async () => {
      await s.handle.deps.db('media_library_sections').delete();
      await locations();
    });

    it('creates (making the folder), lists, edits and deletes a location; admin only', async () => {
      expect((await s.anon.get('/api/admin/storage-locations')).status).toBe(401);
      expect((await s.member.get('/api/admin/storage-locations')).status).toBe(403);
      expect((await s.member.post('/api/admin/storage-locations', { name: 'x', localPath: store })).status).toBe(403);

      const folder = path.join(store, 'new-folder');
      const r = await s.admin.post('/api/admin/storage-locations', { name: 'Big disk', localPath: `${folder}/`, contentTypes: ['mine'], serverPath: `${SERVER_ROOT}/` });
      expect(r.status).toBe(201);
      expect(r.body.location).toMatchObject({ name: 'Big disk', localPath: folder, contentTypes: ['mine'], serverPath: SERVER_ROOT, mappingState: null, writable: true, ready: false });
      expect(r.body.location.freeBytes).toBeGreaterThan(0);
      expect(readdirSync(store)).toContain('new-folder');

      const list = await s.admin.get('/api/admin/storage-locations');
      expect(list.body.locations.map((l: { id: string }) => l.id)).toEqual([r.body.location.id]);

      const p = await s.admin.patch(`/api/admin/storage-locations/${r.body.location.id}`, { name: 'Attic disk', serverPath: null });
      expect(p.status).toBe(200);
      // what the patch leaves out stays as it was
      expect(p.body.location).toMatchObject({ name: 'Attic disk', serverPath: null, contentTypes: ['mine'] });

      expect((await s.admin.delete(`/api/admin/storage-locations/${r.body.location.id}`)).status).toBe(204);
      expect((await s.admin.get('/api/admin/storage-locations')).body.locations).toEqual([]);
      expect((await s.admin.delete(`/api/admin/storage-locations/${r.body.location.id}`)).status).toBe(404);
      expect((await s.admin.patch('/api/admin/storage-locations/nope', { name: 'x' })).status).toBe(404);
    });

    it('refuses a relative path, a folder it cannot write, a duplicate, and a bad server path, in sentences', async () => {
      const relative = await s.admin.post('/api/admin/storage-locations', { name: 'x', localPath: 'media/videos' });
      expect(relative.status).toBe(400);
      expect(relative.body.error.message).toMatch(/full path/);
      // a file where the folder should be: it cannot be created
      writeFileSync(path.join(temp.dir, 'a-file'), 'x');
      const notDir = await s.admin.post('/api/admin/storage-locations', { name: 'x', localPath: path.join(temp.dir, 'a-file', 'sub') });
      expect(notDir.status).toBe(400);
      expect(notDir.body.error.message).toMatch(/could not create the folder/);
      const badServer = await s.admin.post('/api/admin/storage-locations', { name: 'x', localPath: store, serverPath: 'relative/path' });
      expect(badServer.status).toBe(400);
      expect(badServer.body.error.message).toMatch(/as the media server sees it/);
      expect((await s.admin.post('/api/admin/storage-locations', { name: 'One', localPath: store })).status).toBe(201);
      const dup = await s.admin.post('/api/admin/storage-locations', { name: 'Two', localPath: `${store}/./` });
      expect(dup.status).toBe(409);
      expect(dup.body.error.message).toMatch(/already the storage location “One”/);
      expect((await s.admin.post('/api/admin/storage-locations', { name: '', localPath: store })).status).toBe(400);
    });

    it('refuses Hearth’s data folder and anything in it (by `..` or a symlink too) and system folders, in sentences, before making anything', async () => {
      symlinkSync(dataDir, path.join(temp.dir, 'link-to-data'));
      symlinkSync('/etc', path.join(temp.dir, 'link-to-etc'));
      const inData = [s.dataDir, `${s.dataDir}/`, path.join(s.dataDir, 'home-inventory'), `${store}/../data/home-inventory`, path.join(temp.dir, 'link-to-data', 'new-media')];
      for (const localPath of inData) {
        const r = await s.admin.post('/api/admin/storage-locations', { name: 'x', localPath, contentTypes: ['mine'] });
        expect({ localPath, status: r.status }).toEqual({ localPath, status: 400 });
        expect(r.body.error.message).toMatch(/is Hearth’s own data folder or inside it/);
      }
      expect(existsSync(path.join(s.dataDir, 'new-media'))).toBe(false);
      for (const localPath of ['/etc', '/etc/hearth-media', '/usr/share', '/var/lib', '/proc', path.join(temp.dir, 'link-to-etc'), `${store}/../../../../../../../../../etc`]) {
        const r = await s.admin.post('/api/admin/storage-locations', { name: 'x', localPath, contentTypes: ['mine'] });
        expect({ localPath, status: r.status }).toEqual({ localPath, status: 400 });
        expect(r.body.error.message).toMatch(/system folder/);
      }
      expect(existsSync('/etc/hearth-media')).toBe(false);
      expect((await s.admin.get('/api/admin/storage-locations')).body.locations).toEqual([]);
      // nor can a location be moved there
      const ok = await s.admin.post('/api/admin/storage-locations', { name: 'Media', localPath: store });
      expect(ok.status).toBe(201);
      const moved = await s.admin.patch(`/api/admin/storage-locations/${ok.body.location.id}`, { localPath: path.join(s.dataDir, 'home-inventory') });
      expect(moved.status).toBe(400);
      expect(moved.body.error.message).toMatch(/Hearth’s own data folder/);
    });

    it('checks the mapping: ok when the server sees Hearth’s marker file, missing for another or an unknown folder, error when not connected', async () => {
      const loc = (await s.admin.post('/api/admin/storage-locations', { name: 'Media', localPath: store, contentTypes: ['mine'], serverPath: SERVER_ROOT })).body.location;
      // the server does not see this folder yet
      let c = await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`);
      expect(c.status).toBe(200);
      expect(c.body).toMatchObject({ ok: false, location: { mappingState: 'missing', ready: false } });
      expect(c.body.message).toMatch(/does not see a folder \/srv\/plex-media\/hearth/);
      // a folder the server has, but not this one
      const other = path.join(temp.dir, 'other');
      mkdirSync(other, { recursive: true });
      fake.mount(SERVER_ROOT, other);
      c = await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`);
      expect(c.body).toMatchObject({ ok: false, location: { mappingState: 'missing' } });
      expect(c.body.message).toMatch(/not this one/);
      // the same folder: the marker shows up, and is removed afterwards
      fake.mount(SERVER_ROOT, store);
      c = await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`);
      expect(c.body).toMatchObject({ ok: true, location: { mappingState: 'ok', ready: true } });
      expect(c.body.location.mappingCheckedAt).toEqual(expect.any(String));
      expect(readdirSync(store).filter((f) => f.startsWith('.hearth'))).toEqual([]);
      expect(fake.log.some((l) => l.path.startsWith('/services/browse/') && l.status === 200)).toBe(true);
      // a new server path must be checked again
      const p = await s.admin.patch(`/api/admin/storage-locations/${loc.id}`, { serverPath: '/srv/elsewhere' });
      expect(p.body.location).toMatchObject({ mappingState: null, ready: false });
      await s.admin.patch(`/api/admin/storage-locations/${loc.id}`, { serverPath: SERVER_ROOT });
      conn.connected = false;
      c = await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`);
      expect(c.body).toMatchObject({ ok: false, location: { mappingState: 'error' } });
      expect(c.body.message).toMatch(/Connect the media server first/);
      conn.connected = true;
      await fake.setMode('down', { role: 'server' });
      c = await s.admin.post(`/api/admin/storage-locations/${loc.id}/check`);
      expect(c.status).toBe(200);
      expect(c.body).toMatchObject({ ok: false, location: { mappingState: 'error' } });
      expect(c.body.message).not.toMatch(/ECONN|\d{3}/);
      await fake.setMode('ok', { role: 'server' });
      expect((await s.member.post(`/api/admin/storage-locations/${loc.id}/check`)).status).toBe(403);
    });
  });

  describe('provisioning', () => {
    let locId: string;
    const sectionsOnServer = () => fake.state().sections.filter((x) => x.agent === 'com.plexapp.agents.none');

    beforeAll(async () => {
      await s.handle.deps.db('media_library_sections').delete();
      await locations();
      fake.mount(SERVER_ROOT, store);
    });

    it('refuses in rule 3’s order with the reason, and shows it per member', async () => {
      const provision = () => s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.member.id, contentType: 'mine' });
      expect((await s.member.post('/api/mediaserver/admin/provision', { userId: s.users.member.id, contentType: 'mine' })).status).toBe(403);
      expect((await s.anon.post('/api/mediaserver/admin/provision', { userId: s.users.member.id, contentType: 'mine' })).status).toBe(401);
      expect((await s.admin.post('/api/mediaserver/admin/provision', { userId: 'nobody', contentType: 'mine' })).status).toBe(404);
      expect((await s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.member.id, contentType: 'films' })).status).toBe(400);

      conn.connected = false;
      let r = await provision();
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe('Connect the media server first.');
      conn.connected = true;
      // rule 3: the member's own Plex account is linked before their library is made for it
      conn.unlinked.add(s.users.member.id);
      r = await provision();
      expect(r.status).toBe(409);
      expect(r.body.error).toEqual({ code: 'member_not_linked', message: 'Sam has not linked a Plex account yet (or Plex signed Hearth out of it). Sam can link one under Media → Link my Plex account; then provision.' });
      const waiting = (await s.admin.get('/api/mediaserver/admin/library-sections')).body.rows;
      expect(waiting.find((x: { userId: string }) => x.userId === s.users.member.id).blockedReason).toMatch(/^Sam has not linked a Plex account yet/);
      expect(waiting.find((x: { userId: string }) => x.userId === s.users.admin.id).blockedReason).not.toMatch(/linked/);
      conn.unlinked.add(s.users.admin.id);
      const self = await s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.admin.id, contentType: 'mine' });
      expect(self.body.error.message).toMatch(/^You have not linked a Plex account yet/);
      conn.unlinked.clear();
      expect(await s.handle.deps.db('media_library_sections').count({ n: '*' })).toEqual([{ n: 0 }]);
      r = await provision();
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe('Add a storage location for home videos first.');
      const made = await s.admin.post('/api/admin/storage-locations', { name: 'Media', localPath: store, contentTypes: ['mine'] });
      const loc = made.body.location;
      locId = loc.id;
      r = await provision();
      expect(r.body.error.message).toMatch(/Set how the media server sees “Media”/);
      await s.admin.patch(`/api/admin/storage-locations/${loc.id}`, { serverPath: SERVER_ROOT });
      r = await provision();
      expect(r.body.error.message).toMatch(/Check the path mapping of “Media”/);

      const rows = await s.admin.get('/api/mediaserver/admin/library-sections');
      expect(rows.status).toBe(200);
      expect(rows.body.rows).toEqual(
        expect.arrayContaining([
          { userId: s.users.member.id, name: 'Sam', contentType: 'mine', section: null, blockedReason: expect.stringMatching(/Check the path mapping/) },
          { userId: s.users.admin.id, name: 'Alex', contentType: 'mine', section: null, blockedReason: expect.stringMatching(/Check the path mapping/) },
        ]),
      );
      expect((await s.member.get('/api/mediaserver/admin/library-sections')).status).toBe(403);
      // the member: storage not ready, nothing set up, and policies cannot be set yet
      const mine = await s.member.get('/api/mediaserver/me/library-sections');
      expect(mine.body).toEqual({ sections: [{ contentType: 'mine', storageReady: false, section: null }] });
      const early = await s.member.patch('/api/mediaserver/me/library-sections', { contentType: 'mine', removeWatched: true });
      expect(early.status).toBe(409);
      expect(early.body.error.message).toMatch(/not set up yet/);
      expect(sectionsOnServer()).toEqual([]);
    });

    it('queues, creates the member’s folder and a personal-media section on the server, scans, and is ready', async () => {
      expect((await s.admin.post(`/api/admin/storage-locations/${locId}/check`)).body.ok).toBe(true);
      expect((await s.admin.get('/api/mediaserver/admin/library-sections')).body.rows.every((r: { blockedReason: string | null }) => r.blockedReason === null)).toBe(true);
      const r = await s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.member.id, contentType: 'mine' });
      expect(r.status).toBe(202);
      expect(r.body.section).toMatchObject({ userId: s.users.member.id, contentType: 'mine', status: 'queued', syncMode: 'all', removeWatched: false });
      await s.handle.deps.mediaExport.idle();

      const rows = (await s.admin.get('/api/mediaserver/admin/library-sections')).body.rows;
      const row = rows.find((x: { userId: string }) => x.userId === s.users.member.id);
      expect(row.section).toMatchObject({ status: 'ready', error: null, sectionKey: expect.any(String), locationId: locId });
      // the member's folder, and the section as the server has it
      const folders = readdirSync(path.join(store, 'mine'));
      expect(folders).toEqual([expect.stringMatching(/^sam-[a-z0-9]{8}$/)]);
      expect(sectionsOnServer()).toEqual([
        { key: row.section.sectionKey, title: 'Sam — Home videos', type: 'movie', agent: 'com.plexapp.agents.none', locations: [`${SERVER_ROOT}/mine/${folders[0]}`], refreshing: false },
      ]);
      const create = fake.log.find((l) => l.method === 'POST' && l.path === '/library/sections')!;
      const q = new URLSearchParams(create.query);
      expect(Object.fromEntries(q)).toMatchObject({ scanner: 'Plex Video Files Scanner', language: 'xn', type: 'movie', agent: 'com.plexapp.agents.none' });
      expect(fake.log.some((l) => l.path === `/library/sections/${row.section.sectionKey}/refresh`)).toBe(true);
      // the order: create, then scan
      const createAt = fake.log.indexOf(create);
      expect(fake.log.findIndex((l) => l.path.endsWith('/refresh'))).toBeGreaterThan(createAt);

      // idempotent: provisioning again answers the ready section and creates nothing
      const again = await s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.member.id, contentType: 'mine' });
      expect(again.status).toBe(200);
      expect(again.body.section).toMatchObject({ status: 'ready', sectionKey: row.section.sectionKey });
      expect(sectionsOnServer()).toHaveLength(1);

      // a location in use is not removed
      const del = await s.admin.delete(`/api/admin/storage-locations/${locId}`);
      expect(del.status).toBe(409);
      expect(del.body.error.message).toMatch(/A member’s library uses “Media”/);
    });

    it('lets the member read and set their own policies (and only their own)', async () => {
      const mine = await s.member.get('/api/mediaserver/me/library-sections');
      expect(mine.body.sections).toEqual([{ contentType: 'mine', storageReady: true, section: expect.objectContaining({ status: 'ready', userId: s.users.member.id }) }]);
      const p = await s.member.patch('/api/mediaserver/me/library-sections', { contentType: 'mine', syncMode: 'recent', syncRecentCount: 5, removeWatched: true });
      expect(p.status).toBe(200);
      expect(p.body.sections[0].section).toMatchObject({ syncMode: 'recent', syncRecentCount: 5, removeWatched: true });
      expect((await s.member.patch('/api/mediaserver/me/library-sections', { contentType: 'mine', syncRecentCount: 0 })).status).toBe(400);
      // the admin has no section of their own: theirs is untouched, and the member's is not theirs
      const admin = await s.admin.get('/api/mediaserver/me/library-sections');
      expect(admin.body.sections).toEqual([{ contentType: 'mine', storageReady: true, section: null }]);
      expect((await s.admin.patch('/api/mediaserver/me/library-sections', { contentType: 'mine', removeWatched: true })).status).toBe(409);
      expect((await s.anon.get('/api/mediaserver/me/library-sections')).status).toBe(401);
    });

    it('fails with a sentence when the server refuses, and a retry queues again', async () => {
      await fake.setMode('garbage', { role: 'server' });
      const r = await s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.admin.id, contentType: 'mine' });
      expect(r.status).toBe(202);
      await s.handle.deps.mediaExport.idle();
      let row = (await s.admin.get('/api/mediaserver/admin/library-sections')).body.rows.find((x: { userId: string }) => x.userId === s.users.admin.id);
      expect(row.section).toMatchObject({ status: 'failed', error: 'The media server sent an answer Hearth could not read.' });
      await fake.setMode('ok', { role: 'server' });
      expect((await s.admin.post('/api/mediaserver/admin/provision', { userId: s.users.admin.id, contentType: 'mine' })).status).toBe(202);
      await s.handle.deps.mediaExport.idle();
      row = (await s.admin.get('/api/mediaserver/admin/library-sections')).body.rows.find((x: { userId: string }) => x.userId === s.users.admin.id);
      expect(row.section).toMatchObject({ status: 'ready', error: null });
      expect(sectionsOnServer().map((x) => x.title).sort()).toEqual(['Alex — Home videos', 'Sam — Home videos']);
    });

    it('carries on after a restart: a section left scanning is resumed and ends ready, without a second section', async () => {
      const third = (await s.admin.post('/api/admin/users', { name: 'Robin', pin: '2468', role: 'member' })).body.user as { id: string };
      expect(third.id).toEqual(expect.any(String));
      // a slow scan: Hearth stops while the section is scanning
      fake.settings.refreshMs = 60_000;
      expect((await s.admin.post('/api/mediaserver/admin/provision', { userId: third.id, contentType: 'mine' })).status).toBe(202);
      const statusOf = async () => ((await s.handle.deps.db('media_library_sections').where({ user_id: third.id }).first()) as { status: string }).status;
      for (let i = 0; i < 200 && (await statusOf()) !== 'scanning'; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await statusOf()).toBe('scanning');
      await s.close();

      // (the household is already in the database: the new server signs nobody in)
      s = await start(30, 'empty');
      await s.handle.deps.mediaExport.idle();
      expect(await statusOf()).toBe('ready');
      expect(sectionsOnServer().filter((x) => x.title === 'Robin — Home videos')).toHaveLength(1);
    });
  });
});
