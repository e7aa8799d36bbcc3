// The storage module (issue 39): the admin Storage page's numbers (each area of the data folder, from
// the folders the modules declare in their manifests' `storageAreas`, plus the database, logs, caches
// and the rest), one snapshot a day for the 30-day trend, the safe clean-ups, and the warning to
// admins when less than 10 % of the data disk is free.
import { defineModule, type Platform } from '../module.js';
import type { StoragePorts } from './ports.js';
import { createStorageRoutes } from './routes.js';
import { STORAGE_LOW, StorageService } from './service.js';
import { StorageStore } from './store.js';

/** How often today's snapshot is taken again (the trend keeps one a day: the day's last). */
const SNAPSHOT_MS = 6 * 60 * 60_000;
/** When the first snapshot and space check run after start. */
const FIRST_RUN_MS = 60_000;
/** How often the free space is checked. */
const SPACE_CHECK_MS = 10 * 60_000;

export function createStorageModule(p: Platform, ports: StoragePorts) {
  const storage = new StorageService({
    store: new StorageStore(p.db),
    dataDir: p.config.dataDir,
    diskUsage: p.diskUsage,
    clock: p.clock,
    logger: p.logger.child('storage'),
    downloads: ports.downloads,
    converter: ports.converter,
    conditions: ports.conditions,
    declared: () => ports.modules().flatMap((m) => m.storageAreas ?? []),
  });
  // the notifications sweep ends the warning once there is room again
  ports.conditions.watch(STORAGE_LOW, () => storage.lowSpace());
  // a first snapshot and check soon after start, not only after the first interval (and not in the start path)
  let first: NodeJS.Timeout | null = null;
  return defineModule({
    name: 'storage',
    // after /admin/storage-locations in the route table; express matches whole segments, so neither swallows the other
    routes: [{ prefix: '/admin/storage', routes: createStorageRoutes(storage) }],
    services: { storage },
    tasks: [
      { name: 'storage.snapshot', everyMs: SNAPSHOT_MS, run: () => storage.snapshot() },
      { name: 'storage.space', everyMs: SPACE_CHECK_MS, run: () => storage.checkSpace() },
    ],
    start: async () => {
      first = setTimeout(() => {
        void p.scheduler.runNow('storage.snapshot', () => storage.snapshot().then(() => undefined));
        void p.scheduler.runNow('storage.space', () => storage.checkSpace().then(() => undefined));
      }, FIRST_RUN_MS);
      first.unref();
    },
    close: async () => {
      if (first) clearTimeout(first);
    },
  });
}
