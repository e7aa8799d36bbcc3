// The reader module: saved pages and bookmarks (captured by the shared Chromium), collections,
// archives of pages, the change monitor, summaries and questions, and the retired aliases.
import path from 'node:path';
import { captureBrowserFiles } from '../../adapters/browser/profiles.js';
import { defineModule, type Platform } from '../module.js';
import { ReaderAccess } from './access-service.js';
import { ReaderAiService } from './ai-service.js';
import { ReaderArchiveFiles } from './archive-files-service.js';
import { createLazyCaptureEngine } from './capture/lazy.js';
import { createReaderSearchTool } from './chat-tool.js';
import { ReaderCollectionsService } from './collections-service.js';
import { readerToolChecks, readerTools } from './extensions.js';
import { ReaderItemsService } from './items-service.js';
import { ReaderCaptureQueue } from './jobs.js';
import { MONITOR_TASK, MONITOR_TICK_MS, ReaderMonitor } from './monitor.js';
import type { ReaderPorts } from './ports.js';
import { ReaderProbeService } from './probe-service.js';
import { createLegacyBookmarkRoutes, createLegacyProxyRoutes, createReaderAdminRoutes, createReaderRoutes, type ReaderServices } from './routes.js';
import { createReaderSearchProvider } from './search-provider.js';
import { ReaderCollectionsStore } from './collections-store.js';
import { ReaderSearchStore } from './search-store.js';
import { ReaderStore } from './store.js';
import { ReaderTransferService } from './transfer-service.js';

export function createReaderModule(p: Platform, ports: ReaderPorts) {
  const { config, clock, guard, logger } = p;
  // The shared browser launches on the first capture, not here. A capture browser profile left in
  // the temp folder by a Hearth that was killed goes now.
  const browserFiles = captureBrowserFiles(path.join(config.dataDir, 'run'), logger);
  const swept = browserFiles.sweep();
  if (swept.length) logger.info({ removed: swept.length }, 'removed capture browser profiles left by an earlier run');
  const captureEngine = ports.captureEngine ?? createLazyCaptureEngine({ guard, chromiumPath: config.chromiumPath, logger, browserFiles });
  const store = new ReaderStore(p.db);
  const readerQueue = new ReaderCaptureQueue({ store, engine: captureEngine, clock, logger: logger.child('reader-capture'), guard, dataDir: config.dataDir, disk: p.diskSpace });
  const access = new ReaderAccess({ store, preferences: p.preferences });
  const collections = new ReaderCollectionsService({ store: new ReaderCollectionsStore(p.db), clock });
  const items = new ReaderItemsService({ store, search: new ReaderSearchStore(p.db), access, collections, queue: readerQueue, preferences: p.preferences, guard, clock, dataDir: config.dataDir });
  const reader: ReaderServices = {
    access,
    items,
    collections,
    files: new ReaderArchiveFiles({ store, access, clock, dataDir: config.dataDir }),
    transfer: new ReaderTransferService({ store, access, collections, queue: readerQueue, clock, logger: logger.child('reader') }),
    probe: new ReaderProbeService({ access, guard }),
  };
  const readerAi = new ReaderAiService({ access, items, store, models: ports.models, runtime: p.modelRuntime });
  const readerMonitor = new ReaderMonitor({ store, capture: readerQueue, notifications: ports.notifications, clock, logger: logger.child('reader-monitor') });

  return defineModule({
    name: 'reader',
    storageAreas: [{ key: 'captures', label: 'Reader captures', folders: ['reader'] }],
    routes: [
      { prefix: '/reader', routes: createReaderRoutes(reader, p.sse, readerAi) },
      { prefix: '/admin/reader', routes: createReaderAdminRoutes(reader) },
      // retired aliases, thin over the same service
      { prefix: '/bookmarks', routes: createLegacyBookmarkRoutes(reader) },
      { prefix: '/admin/bookmarks', routes: createReaderAdminRoutes(reader) },
      { prefix: '/proxy', routes: createLegacyProxyRoutes(reader) },
    ],
    services: { reader, readerQueue, readerMonitor },
    tasks: [{ name: MONITOR_TASK, everyMs: p.tuning.readerMonitorTickMs ?? MONITOR_TICK_MS, run: () => readerMonitor.tick() }],
    chatTools: [createReaderSearchTool({ items })],
    searchProviders: [createReaderSearchProvider({ items, isEnabled: () => ports.isEnabled('reader') })],
    extensions: { definitions: readerTools, checks: readerToolChecks({ chatReadiness: ports.chatReadiness }) },
    // a deleted member's Reader items went with their row; their files on disk go here
    listeners: [{ event: 'user.deleted', run: () => items.removeOrphanFiles() }],
    start: () => readerQueue.start(),
    // parks a running capture (it resumes at the next start), then closes the shared browser
    close: async () => {
      await readerQueue.stop();
      await captureEngine.close();
    },
  });
}
