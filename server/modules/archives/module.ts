// The archives module: offline archives (ZIM files) served by the household's kiwix-serve, their
// downloads, the content proxy, unified search's and chat's archive search.
import path from 'node:path';
import { createKiwixClient } from '../../adapters/archive-server/kiwix.js';
import { archiveServerDefinition, findKiwixServe, type ArchiveServerConfig } from '../../platform/sidecars/archive-server.js';
import { ProcessSupervisor } from '../../platform/sidecars/supervisor.js';
import { defineModule, type Platform } from '../module.js';
import { bootSteps } from './boot-steps.js';
import { loadArchiveCatalog } from './catalog.js';
import { createArchiveSearchTool } from './chat-tool.js';
import { ArchiveContentService } from './content-service.js';
import { ArchiveDownloadsService } from './downloads-service.js';
import { ArchiveEntryCache } from './entry-cache.js';
import { archiveToolChecks, archiveTools } from './extensions.js';
import type { ArchivesPorts } from './ports.js';
import { createArchiveAdminRoutes, createArchiveContentRoutes, createArchiveLevelRoutes, createArchiveRoutes } from './routes.js';
import { ArchiveRuntimeService } from './runtime-service.js';
import { ARCHIVE_READY_TIMEOUT_MS } from './schema.js';
import { createArchiveSearchProvider } from './search-provider.js';
import { ArchivesService } from './service.js';
import { ArchivesStore } from './store.js';

/** How long a look for kiwix-serve answers the archives' status (see kiwixBinaryRecent). */
const KIWIX_LOOK_TTL_MS = 1_000;

export function createArchivesModule(p: Platform, ports: ArchivesPorts) {
  const { config, tuning } = p;
  const kiwix = createKiwixClient({ baseUrl: `http://127.0.0.1:${config.archiveServerPort}` });
  // Where kiwix-serve is: a synchronous look through PATH's folders. The archives' status (which
  // every chat answer reads, through the archive tool's readiness) takes the last look when it is
  // under a second old, so answers that start together share one; the supervisor and the
  // archive-server install look afresh, and their look is the one shared.
  let kiwixLook: { at: number; binary: string | null } | null = null;
  const kiwixBinary = () => {
    const binary = findKiwixServe({ explicit: config.kiwixServePath, resourcesDir: config.resourcesDir, dataDir: config.dataDir, searchPath: config.searchPath });
    kiwixLook = { at: performance.now(), binary };
    return binary;
  };
  const kiwixBinaryRecent = () => (kiwixLook && performance.now() - kiwixLook.at < KIWIX_LOOK_TTL_MS ? kiwixLook.binary : kiwixBinary());
  const supervisor = new ProcessSupervisor<ArchiveServerConfig>(
    archiveServerDefinition({
      binary: kiwixBinary,
      port: config.archiveServerPort,
      probe: (signal) => kiwix.probe(signal),
      readinessTimeoutMs: ARCHIVE_READY_TIMEOUT_MS,
      pidFile: path.join(config.dataDir, 'run', 'archive-server.pid'),
    }),
    p.logger.child('archive-server'),
  );
  const store = new ArchivesStore(p.db);
  const cache = new ArchiveEntryCache({ maxBytes: tuning.archiveCacheBytes });
  const catalog = loadArchiveCatalog(config.archiveCatalogPath);
  const logger = p.logger.child('archives');
  const archives = new ArchivesService({ store, catalog, supervisor, kiwix, isInstalled: () => kiwixBinaryRecent() !== null, clock: p.clock, logger, cache, archivesLevel: ports.archivesLevel });
  const archiveDownloads = new ArchiveDownloadsService({ archives, store, catalog, guard: p.guard, dataDir: config.dataDir, offline: p.offline, clock: p.clock, stallTimeoutMs: tuning.downloadStallTimeoutMs });
  const archiveContent = new ArchiveContentService({ archives, downloads: archiveDownloads, store, supervisor, kiwix, cache });
  const archiveRuntime = new ArchiveRuntimeService({
    archives,
    supervisor,
    isInstalled: () => kiwixBinary() !== null,
    guard: p.guard,
    dataDir: config.dataDir,
    offline: p.offline,
    logger,
    stallTimeoutMs: tuning.downloadStallTimeoutMs,
    kiwixToolsUrl: config.kiwixToolsUrl,
  });

  return defineModule({
    name: 'archives',
    storageAreas: [{ key: 'archives', label: 'Offline archives', folders: ['archives'] }],
    routes: [
      // the archive pages and images are the same for whoever asks: mounted before the session lookup
      { prefix: '/archives/view', routes: createArchiveContentRoutes(archiveContent), public: true },
      { prefix: '/archives', routes: createArchiveRoutes(archives) },
      { prefix: '/admin/content/archives', routes: createArchiveLevelRoutes(archives) },
      { prefix: '/admin/archives', routes: createArchiveAdminRoutes(archives, archiveDownloads, archiveRuntime, p.sse) },
    ],
    services: { archives, archiveContent, archiveRuntime },
    bootSteps: bootSteps({ archives }),
    chatTools: [createArchiveSearchTool({ archives })],
    searchProviders: [createArchiveSearchProvider({ archives, isEnabled: () => ports.isEnabled('library') })],
    extensions: { definitions: archiveTools, checks: archiveToolChecks({ archives, chatReadiness: ports.chatReadiness }) },
    // running archive downloads stop before their server
    close: async () => {
      archiveDownloads.stop();
      await archives.stop();
    },
  });
}
