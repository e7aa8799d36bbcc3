// The admin Storage page's API (issue 39): admins only; each area's bytes and files match what the
// test wrote (a symbolic link out of the data folder is not followed); the clean-up's dry run lists
// exactly what the real run removes and nothing else is touched; the low-space warning reaches the
// admins once and ends when there is room again; /admin/storage does not swallow /admin/storage-locations.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../server/actor.js';
import type { CleanupItem, StorageResponse } from '../../server/modules/storage/schema.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';

const DAY = 24 * 60 * 60_000;
const GB = 1024 ** 3;

describe('admin storage', () => {
  let s: TestServer;
  let outside: string;
  const disk = { freeBytes: 500 * GB, totalBytes: 1000 * GB, unreadable: false };
  const file = (rel: string, bytes: number, ageMs = 0) => {
    const abs = path.join(s.dataDir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, Buffer.alloc(bytes, 7));
    if (ageMs) utimesSync(abs, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
    return abs;
  };
  const area = (body: StorageResponse, key: string) => body.areas.find((a) => a.key === key)!;

  beforeAll(async () => {
    s = await startTestServer({ seed: 'household', overrides: {
        diskUsage: async () => {
          if (disk.unreadable) throw Object.assign(new Error('statfs failed'), { code: 'EIO' });
          return { freeBytes: disk.freeBytes, totalBytes: disk.totalBytes };
        },
      },
    });
    outside = mkdtempSync(path.join(os.tmpdir(), 'hearth-outside-'));
    writeFileSync(path.join(outside, 'big.bin'), Buffer.alloc(300_000, 1));
  });
  afterAll(async () => {
    await s?.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('is for admins: anonymous 401, a member 403, bad input 400 with a sentence', async () => {
    expect((await s.anon.get('/api/admin/storage')).status).toBe(401);
    expect((await s.member.get('/api/admin/storage')).status).toBe(403);
    expect((await s.anon.post('/api/admin/storage/cleanup', { dryRun: true })).status).toBe(401);
    expect((await s.member.post('/api/admin/storage/cleanup', { dryRun: true })).status).toBe(403);
    for (const body of [{}, { dryRun: 'yes' }, { dryRun: true, paths: 'all' }, { dryRun: true, extra: 1 }]) {
      const r = await s.admin.post('/api/admin/storage/cleanup', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error.message).toBe('string');
    }
  });

  it('does not swallow /admin/storage-locations (the media server export’s own route)', async () => {
    const r = await s.admin.get('/api/admin/storage-locations');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.locations)).toBe(true);
    expect(r.body.areas).toBeUndefined();
  });

  it('adds up each area from the files on disk, never following a link out of the data folder', async () => {
    const before = (await s.admin.get('/api/admin/storage')).body as StorageResponse;
    expect(before.areas.map((a) => a.key)).toEqual(expect.arrayContaining(['archives', 'maps', 'models', 'pictures', 'captures', 'media-uploads', 'converter', 'database', 'logs', 'caches', 'other']));
    file('maps/sizes/a.map', 10_000);
    file('maps/sizes/deep/b.map', 2_345);
    file('archives/sizes/c.zim', 50_000);
    file('cache/sizes/d.webp', 777);
    symlinkSync(outside, path.join(s.dataDir, 'outside-link'));
    symlinkSync(path.join(outside, 'big.bin'), path.join(s.dataDir, 'maps', 'sizes', 'link.map'));
    const after = (await s.admin.get('/api/admin/storage')).body as StorageResponse;
    const grew = (key: string) => ({ bytes: area(after, key).bytes - area(before, key).bytes, files: area(after, key).files - area(before, key).files });
    // the link inside maps is counted as the small link it is, not the 300 KB file it points at
    const linkBytes = path.join(outside, 'big.bin').length;
    expect(grew('maps')).toEqual({ bytes: 12_345 + linkBytes, files: 3 });
    expect(grew('archives')).toEqual({ bytes: 50_000, files: 1 });
    expect(grew('caches')).toEqual({ bytes: 777, files: 1 });
    expect(grew('other')).toEqual({ bytes: outside.length, files: 1 });
    expect(area(after, 'database').bytes).toBeGreaterThan(0);
    expect(after.freeBytes).toBe(500 * GB);
    expect(after.totalBytes).toBe(1000 * GB);
    rmSync(path.join(s.dataDir, 'maps', 'sizes'), { recursive: true });
    rmSync(path.join(s.dataDir, 'archives', 'sizes'), { recursive: true });
    rmSync(path.join(s.dataDir, 'cache', 'sizes'), { recursive: true });
    rmSync(path.join(s.dataDir, 'outside-link'));
  });

  it('keeps one snapshot a day for the trend', async () => {
    const used = await s.handle.deps.storage.snapshot();
    await s.handle.deps.storage.snapshot();
    const { trend } = (await s.admin.get('/api/admin/storage')).body as StorageResponse;
    expect(trend).toHaveLength(1);
    expect(trend[0]!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(trend[0]!.usedBytes).toBeGreaterThan(0);
    expect(Math.abs(trend[0]!.usedBytes - used)).toBeLessThan(1024 ** 2); // the database may have grown a page between the two
  });

  it('the dry run lists exactly what the real run removes, and nothing else is touched', async () => {
    const { downloads } = s.handle.deps;
    await downloads.setPaused(SYSTEM_ACTOR, true);
    await downloads.enqueue(SYSTEM_ACTOR, [{ kind: 'map', target: 'http://127.0.0.1:9/live.map', destination: 'maps/live.map', label: 'Live map', itemId: null, expectedBytes: null, sha256: null, hostClass: 'maps', requires: [] }]);
    const ownerId = s.users.admin.id;
    const keptId = 'kept-file';
    await s.handle.deps.db('converter_files').insert({ id: 'expired-file', user_id: ownerId, name: 'e.jpg', mime: 'image/jpeg', bytes: 80, created_at: new Date(Date.now() - 2 * DAY).toISOString(), expires_at: new Date(Date.now() - DAY).toISOString() });
    await s.handle.deps.db('converter_files').insert({ id: keptId, user_id: ownerId, name: 'k.jpg', mime: 'image/jpeg', bytes: 5, created_at: new Date().toISOString(), expires_at: new Date(Date.now() + DAY).toISOString() });
    const keep = [
      file('maps/live.map.part', 1_000), // a waiting download's
      file('archives/done.zim', 4_000),
      file('cache/media-img/fresh.webp', 300),
      file(`converter/files/${ownerId}/${keptId}`, 5),
      file('voice/tmp/now.wav', 40),
      path.join(outside, 'big.bin'),
    ];
    symlinkSync(path.join(outside, 'big.bin'), path.join(s.dataDir, 'cache', 'media-img', 'link.webp'));
    utimesSync(path.join(outside, 'big.bin'), new Date(Date.now() - 90 * DAY), new Date(Date.now() - 90 * DAY));
    const goes = [
      { path: 'archives/wiki/failed.zim.part', bytes: 2_000, reason: 'failed_download', area: 'archives' },
      { path: 'cache/media-img/old.webp', bytes: 600, reason: 'expired_cache', area: 'caches', age: 40 * DAY },
      { path: `converter/files/${ownerId}/orphan`, bytes: 70, reason: 'orphaned_file', area: 'converter' },
      { path: `converter/files/${ownerId}/expired-file`, bytes: 80, reason: 'expired_conversion', area: 'converter' },
      { path: 'converter/jobs/stale/upload', bytes: 90, reason: 'temporary_file', area: 'converter', dir: 'converter/jobs/stale' },
      { path: 'maps/gone.map.part', bytes: 1_500, reason: 'failed_download', area: 'maps' },
      { path: 'voice/tmp/old.wav', bytes: 30, reason: 'temporary_file', area: 'other', age: 3 * DAY },
    ];
    for (const g of goes) file(g.path, g.bytes, g.age);
    const stale = path.join(s.dataDir, 'converter/jobs/stale');
    utimesSync(stale, new Date(Date.now() - 2 * DAY), new Date(Date.now() - 2 * DAY));
    const expected: CleanupItem[] = goes
      .map((g) => ({ area: g.area, path: g.dir ?? g.path, bytes: g.bytes, reason: g.reason as CleanupItem['reason'] }))
      .sort((a, b) => (a.path < b.path ? -1 : 1));

    const dry = await s.admin.post('/api/admin/storage/cleanup', { dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.items).toEqual(expected);
    expect(dry.body.bytes).toBe(expected.reduce((n, i) => n + i.bytes, 0));
    for (const g of goes) expect(existsSync(path.join(s.dataDir, g.path)), g.path).toBe(true);

    // the confirmed list, with paths that are not on it (a kept file, an escape) ignored
    const real = await s.admin.post('/api/admin/storage/cleanup', { dryRun: false, paths: [...dry.body.items.map((i: CleanupItem) => i.path), 'archives/done.zim', '../../etc/passwd'] });
    expect(real.status).toBe(200);
    expect(real.body.items).toEqual(dry.body.items);
    expect(real.body.bytes).toBe(dry.body.bytes);
    for (const g of goes) expect(existsSync(path.join(s.dataDir, g.dir ?? g.path)), g.path).toBe(false);
    for (const k of keep) expect(existsSync(k), k).toBe(true);
    expect(existsSync(path.join(s.dataDir, 'cache', 'media-img', 'link.webp'))).toBe(true);
    expect((await s.admin.post('/api/admin/storage/cleanup', { dryRun: true })).body).toEqual({ items: [], bytes: 0, dryRun: true });
  });

  it('warns the admins once while less than 10 % is free, and ends the warning when there is room', async () => {
    const { storage, conditions } = s.handle.deps;
    const warnings = async (c = s.admin) => ((await c.get('/api/notifications')).body.notifications as Array<{ payload: { kind: string; title: string; link: string } }>).filter((n) => n.payload.kind === 'storage.low');
    expect(await storage.checkSpace()).toBe(false);
    expect(await warnings()).toEqual([]);
    disk.freeBytes = 80 * GB;
    expect(await storage.checkSpace()).toBe(true);
    disk.freeBytes = 70 * GB;
    expect(await storage.checkSpace()).toBe(true);
    const open = await warnings();
    expect(open).toHaveLength(1);
    expect(open[0]!.payload.title).toBe('The data disk is nearly full');
    expect(open[0]!.payload.link).toBe('/admin/storage');
    expect(await warnings(s.member)).toEqual([]);
    disk.freeBytes = 300 * GB;
    await conditions.sweep();
    expect(await warnings()).toEqual([]);
  });

  it('a disk whose numbers cannot be read answers null for them, and raises no warning', async () => {
    disk.unreadable = true;
    try {
      const r = await s.admin.get('/api/admin/storage');
      expect(r.status).toBe(200);
      expect(r.body.freeBytes).toBeNull();
      expect(r.body.totalBytes).toBeNull();
      expect(r.body.areas.length).toBeGreaterThan(0);
      expect(await s.handle.deps.storage.checkSpace()).toBe(false);
    } finally {
      disk.unreadable = false;
    }
  });
});
