// The rules of the admin Storage page (issue 39): what each area of the data folder holds (a walk
// that never blocks the event loop, scan.ts), the disk's free and total bytes, one snapshot a day
// for the 30-day trend, the safe clean-ups (a dry run lists exactly what the real run removes; every
// path through the path guard, no symbolic link followed or removed), and the low-space warning.
import { lstat, opendir, rm } from 'node:fs/promises';
import path from 'node:path';
import { assertAdmin, type Actor } from '../../actor.js';
import type { Clock } from '../../platform/clock.js';
import { formatSize, type DiskUsage } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import { DOWNLOAD_FOLDERS } from '../downloads/schema.js';
import type { StorageAreaDeclaration } from '../module.js';
import type { ConditionText } from '../notifications/public.js';
import type { StoragePorts } from './ports.js';
import { sizeOf, walkFiles } from './scan.js';
import { LOW_SPACE_RATIO, TREND_DAYS, type CleanupBody, type CleanupItem, type CleanupReason, type CleanupResponse, type StorageArea, type StorageResponse } from './schema.js';
import type { StorageStore } from './store.js';

/** The condition key of the low-space warning. */
export const STORAGE_LOW = 'storage.low';

/** The database's files at the data folder's top. */
const DATABASE_FILES = /^hearth\.db(-wal|-shm|-journal)?$/;
const DAY_MS = 24 * 60 * 60_000;
/** A cache file not used for this long is expired (the picture cache touches a file at each use). */
export const CACHE_EXPIRY_MS = 30 * DAY_MS;
/** A converter job folder or voice scratch file older than this belongs to no running work. */
export const TEMP_EXPIRY_MS = DAY_MS;

/** The areas Hearth itself fills (the modules declare theirs in their manifests' `storageAreas`). */
const PLATFORM_AREAS: StorageAreaDeclaration[] = [
  { key: 'database', label: 'Database', folders: [] },
  { key: 'logs', label: 'Logs', folders: ['logs'] },
  { key: 'caches', label: 'Caches', folders: ['cache'] },
];
const OTHER = { key: 'other', label: 'Other' };

export interface StorageDeps extends Omit<StoragePorts, 'modules'> {
  store: StorageStore;
  dataDir: string;
  diskUsage: DiskUsage;
  clock: Clock;
  logger: Logger;
  /** The areas the modules declare, asked when first needed (every module is built by then). */
  declared(): StorageAreaDeclaration[];
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export class StorageService {
  constructor(private readonly deps: StorageDeps) {}

  /** Areas in page order: the modules' (merged by key), then the platform's, then Other. */
  private areas(): { list: Array<{ key: string; label: string }>; byFolder: Map<string, string> } {
    const list: Array<{ key: string; label: string }> = [];
    const byFolder = new Map<string, string>();
    for (const a of [...this.deps.declared(), ...PLATFORM_AREAS]) {
      if (!list.some((x) => x.key === a.key)) list.push({ key: a.key, label: a.label });
      for (const f of a.folders) if (!byFolder.has(f)) byFolder.set(f, a.key);
    }
    list.push(OTHER);
    return { list, byFolder };
  }

  private areaOfTop(name: string, byFolder: Map<string, string>): string {
    return byFolder.get(name) ?? (DATABASE_FILES.test(name) ? 'database' : OTHER.key);
  }

  private async topEntries(): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const d of await opendir(this.deps.dataDir)) names.push(d.name);
    } catch {
      // no data folder yet: nothing stored
    }
    return names.sort();
  }

  /** Bytes and files of every area, walking the data folder once. */
  async measure(): Promise<StorageArea[]> {
    const { list, byFolder } = this.areas();
    const totals = new Map(list.map((a) => [a.key, { ...a, bytes: 0, files: 0 }]));
    for (const name of await this.topEntries()) {
      const size = await sizeOf(path.join(this.deps.dataDir, name));
      const area = totals.get(this.areaOfTop(name, byFolder))!;
      area.bytes += size.bytes;
      area.files += size.files;
    }
    return [...totals.values()];
  }

  private async disk(): Promise<{ freeBytes: number; totalBytes: number } | null> {
    try {
      return await this.deps.diskUsage(this.deps.dataDir);
    } catch (err) {
      this.deps.logger.warn({ err }, 'the data disk’s free space could not be read');
      return null;
    }
  }

  async overview(actor: Actor): Promise<StorageResponse> {
    assertAdmin(actor);
    const [areas, disk, trend] = await Promise.all([this.measure(), this.disk(), this.deps.store.since(dayOf(new Date(this.deps.clock.now().getTime() - (TREND_DAYS - 1) * DAY_MS)))]);
    return { areas, freeBytes: disk?.freeBytes ?? null, totalBytes: disk?.totalBytes ?? null, trend };
  }

  /** The daily task: today's used bytes (one row a day, replaced through the day), older than the trend forgotten. */
  async snapshot(): Promise<number> {
    const now = this.deps.clock.now();
    const used = (await this.measure()).reduce((n, a) => n + a.bytes, 0);
    await this.deps.store.upsert(dayOf(now), used, now.toISOString());
    await this.deps.store.prune(dayOf(new Date(now.getTime() - (TREND_DAYS - 1) * DAY_MS)));
    return used;
  }

  private rel(abs: string): string {
    return path.relative(this.deps.dataDir, abs).split(path.sep).join('/');
  }

  /** Everything safe to remove now, sorted by path: the one list both the dry run and the real run use. */
  async candidates(): Promise<CleanupItem[]> {
    const { byFolder } = this.areas();
    const now = this.deps.clock.now().getTime();
    const items: CleanupItem[] = [];
    const add = (abs: string, bytes: number, reason: CleanupReason) => {
      const rel = this.rel(abs);
      items.push({ area: this.areaOfTop(rel.split('/')[0]!, byFolder), path: rel, bytes, reason });
    };
    const root = (folder: string) => resolveInside(this.deps.dataDir, folder);

    // failed and cancelled downloads: a .part in the download folders no waiting or running job writes
    const live = await this.deps.downloads.livePartFiles();
    for (const folder of DOWNLOAD_FOLDERS) {
      const dir = root(folder);
      if (dir) await walkFiles(dir, (f) => f.regular && f.path.endsWith('.part') && !live.has(f.path) && add(f.path, f.bytes, 'failed_download'));
    }

    // converted files past their 24 hours, or without a row (orphans); job folders of no running conversion
    const converterDir = root('converter');
    if (converterDir) {
      const { inUse, known } = await this.deps.converter.inUse();
      const filesDir = path.join(converterDir, 'files');
      await walkFiles(filesDir, (f) => {
        if (!f.regular || inUse.has(path.relative(converterDir, f.path).split(path.sep).join('/'))) return;
        add(f.path, f.bytes, known.has(path.basename(f.path)) ? 'expired_conversion' : 'orphaned_file');
      });
      await this.oldChildren(path.join(converterDir, 'jobs'), now - TEMP_EXPIRY_MS, (name) => inUse.has(`jobs/${name}`), add);
    }

    // cache files nobody used for 30 days
    const cacheDir = root('cache');
    if (cacheDir) await walkFiles(cacheDir, (f) => f.regular && f.mtimeMs < now - CACHE_EXPIRY_MS && add(f.path, f.bytes, 'expired_cache'));

    // speech scratch files a crashed request left
    const scratch = root('voice/tmp');
    if (scratch) await this.oldChildren(scratch, now - TEMP_EXPIRY_MS, () => false, add);

    return items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Direct children of `dir` last changed before `before` (folders whole, with their size), except those `keep` names. */
  private async oldChildren(dir: string, before: number, keep: (name: string) => boolean, add: (abs: string, bytes: number, reason: CleanupReason) => void): Promise<void> {
    let names: string[];
    try {
      names = [];
      for await (const d of await opendir(dir)) names.push(d.name);
    } catch {
      return;
    }
    for (const name of names) {
      if (keep(name)) continue;
      const abs = path.join(dir, name);
      const s = await lstat(abs).catch(() => null);
      if (!s || s.isSymbolicLink() || s.mtimeMs >= before) continue;
      add(abs, (await sizeOf(abs)).bytes, 'temporary_file');
    }
  }

  /**
   * A dry run lists what is safe to remove; the real run removes the same list (only the `paths`
   * the admin confirmed, when given, and only while each is still on the list).
   */
  async cleanup(actor: Actor, body: CleanupBody): Promise<CleanupResponse> {
    assertAdmin(actor);
    let items = await this.candidates();
    if (body.paths) {
      const confirmed = new Set(body.paths);
      items = items.filter((i) => confirmed.has(i.path));
    }
    if (!body.dryRun) {
      const removed: CleanupItem[] = [];
      for (const item of items) {
        const abs = resolveInside(this.deps.dataDir, item.path);
        if (!abs || abs === path.resolve(this.deps.dataDir)) continue;
        const s = await lstat(abs).catch(() => null);
        if (!s || s.isSymbolicLink()) continue;
        await rm(abs, { recursive: true, force: true });
        removed.push(item);
      }
      items = removed;
      this.deps.logger.info({ files: items.length, bytes: items.reduce((n, i) => n + i.bytes, 0), by: actor.kind === 'user' ? actor.id : 'system' }, 'storage clean-up');
    }
    return { items, bytes: items.reduce((n, i) => n + i.bytes, 0), dryRun: body.dryRun };
  }

  /** The warning's words while the disk is below 10 % free; null when it is not (or cannot be read). */
  async lowSpace(): Promise<ConditionText | null> {
    const disk = await this.disk();
    if (!disk || disk.totalBytes <= 0 || disk.freeBytes / disk.totalBytes >= LOW_SPACE_RATIO) return null;
    const share = Math.floor((disk.freeBytes / disk.totalBytes) * 100);
    return {
      title: 'The data disk is nearly full',
      body: `Only ${formatSize(disk.freeBytes)} of ${formatSize(disk.totalBytes)} is free (${share} %). Downloads and uploads stop when it runs out; see what takes the room and clean up.`,
      link: '/admin/storage',
      linkLabel: 'Open Storage',
    };
  }

  /** The scheduled check: raises the one warning (its words kept up to date, never a second copy) or ends it. */
  async checkSpace(): Promise<boolean> {
    const text = await this.lowSpace();
    if (text) await this.deps.conditions.raise(STORAGE_LOW, text);
    else await this.deps.conditions.resolve(STORAGE_LOW);
    return text !== null;
  }
}
