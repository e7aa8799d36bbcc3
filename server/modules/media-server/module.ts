// The media server module (the household's Plex): the connection and each member's link, the
// library feeds, the /img and /stream proxies, members' private libraries (storage locations,
// provisioning, home videos) and the watched sweep.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMediaClients, type PlexClientInfo } from '../../adapters/media-server/plex.js';
import { tableWrites } from '../../db/connection.js';
import { defineModule, type Platform } from '../module.js';
import { createMediaConnectionRoutes } from './connection-routes.js';
import { MediaConnectionService } from './connection-service.js';
import { MediaConnectionStore } from './connection-store.js';
import { createMediaExportRoutes } from './export-routes.js';
import { MediaExportService } from './export-service.js';
import { MediaExportStore } from './export-store.js';
import { RESOLUTION_TTL_MS } from './guids.js';
import { createHomeVideoRoutes } from './home-videos-routes.js';
import { HomeVideosService } from './home-videos-service.js';
import { createMediaLibraryRoutes } from './library-routes.js';
import { MediaCatalogueService } from './catalogue-service.js';
import { MediaLibraryService } from './library-service.js';
import { ProgressStore, ResolutionStore } from './library-store.js';
import type { MediaConnection } from './parts.js';
import type { MediaServerPorts } from './ports.js';
import { PrivateSectionIndex } from './private-sections.js';
import { createMediaProxyRoutes } from './proxy-routes.js';
import { MediaProxy } from './proxy-service.js';
import { SERVER_TIMEOUT_MS, WATCHED_SWEEP_MS } from './schema.js';
import { StorageLocationsService } from './storage-service.js';
import { createStorageLocationRoutes } from './storage-routes.js';
import { WATCHED_SWEEP_TASK, WatchedSweep } from './sweep.js';

export function createMediaServerModule(p: Platform, ports: MediaServerPorts) {
  const { config, db, clock, tuning, logger } = p;
  // plex.tv and discover through the one guard; the server (and each candidate an admin's discovery
  // probes) through a guard naming only its origin. The client identifier is filled in from app
  // settings by the connection, once per install.
  const clientInfo: PlexClientInfo = { clientIdentifier: '', product: 'Hearth', version: readVersion(config.rootDir), platform: process.platform, device: 'Hearth server', deviceName: os.hostname() || 'Hearth' };
  const mediaClients = createMediaClients({
    accountUrl: config.mediaAccountUrl,
    discoverUrl: config.mediaDiscoverUrl,
    linkPageUrl: config.mediaLinkPageUrl,
    codePageUrl: config.mediaCodePageUrl,
    guard: p.guard,
    allowOrigins: config.fetchAllowOrigins,
    offline: p.offline,
    client: clientInfo,
    timeoutMs: SERVER_TIMEOUT_MS,
    logger: logger.child('media-server'),
  });
  const mediaConnection = new MediaConnectionService({ store: new MediaConnectionStore(db), clients: mediaClients, settings: p.settings, clientInfo, clock, logger: logger.child('media-server'), healthTtlMs: tuning.mediaHealthTtlMs, probeMs: tuning.mediaProbeMs });
  const resolutions = new ResolutionStore(db, clock);
  const exportStore = new MediaExportStore(db);
  // members' private sections (the export's), hidden from everyone else by the library and the proxies
  const mediaPrivateSections = new PrivateSectionIndex({ store: exportStore, version: tableWrites(db, ['media_library_sections', 'users']), mediaLevel: ports.mediaLevel });
  const libraryDeps = { connection: mediaConnection, discover: mediaClients.discover, resolutions, progress: new ProgressStore(db), privateSections: mediaPrivateSections, clock, logger: logger.child('media-library') };
  const mediaLibrary = new MediaLibraryService(libraryDeps);
  // what the films and shows ask of Plex's catalogue, the library and a member's viewed state
  const mediaCatalogue = new MediaCatalogueService(libraryDeps);
  const mediaProxy = new MediaProxy({ connection: mediaConnection, privateSections: mediaPrivateSections, cacheDir: path.join(config.dataDir, 'cache', 'media-img'), logger: logger.child('media-server') });

  // the export's view of the shared media server (tests may hand it a stand-in)
  const exportConnection: MediaConnection = ports.exportConnection ?? mediaConnection;
  const exportLog = logger.child('media-export');
  const storage = new StorageLocationsService({ store: exportStore, connection: exportConnection, diskFree: p.diskFree, clock, logger: exportLog, dataDir: config.dataDir });
  const mediaExport = new MediaExportService({ store: exportStore, storage, connection: exportConnection, members: ports.members, clock, logger: exportLog, scanPollMs: tuning.mediaScanPollMs });
  const homeVideos = new HomeVideosService({ store: exportStore, exports: mediaExport, connection: exportConnection, clock, logger: exportLog, uploadDir: path.join(config.dataDir, 'media-uploads'), uploadExpiryMs: tuning.homeVideoUploadExpiryMs, maxBytes: tuning.homeVideoMaxBytes, settings: p.settings, disk: p.diskSpace });
  // watched by the server's view count (the member's token) or Hearth's own completed flag: the
  // library's lookup; a test's stand-in connection keeps the sweep's own view-count lookup
  const mediaSweep = new WatchedSweep({ store: exportStore, videos: homeVideos, connection: exportConnection, clock, logger: exportLog, ...(ports.exportConnection ? {} : { watched: mediaLibrary }) });

  return defineModule({
    name: 'media-server',
    storageAreas: [{ key: 'media-uploads', label: 'Home video uploads', folders: ['media-uploads'] }],
    routes: [
      { prefix: '/mediaserver', routes: createMediaConnectionRoutes(mediaConnection) },
      { prefix: '/mediaserver', routes: createMediaExportRoutes(mediaExport) },
      { prefix: '/mediaserver', routes: createHomeVideoRoutes(homeVideos) },
      { prefix: '/admin/storage-locations', routes: createStorageLocationRoutes(storage) },
      { prefix: '/mediaserver', routes: createMediaLibraryRoutes(mediaLibrary) },
      { prefix: '/mediaserver', routes: createMediaProxyRoutes(mediaProxy) },
    ],
    services: { mediaConnection, mediaLibrary, mediaExport, homeVideos, mediaSweep, mediaPrivateSections, mediaCatalogue },
    tasks: [
      { name: 'media.upload-cleanup', everyMs: 60 * 60_000, run: () => homeVideos.cleanExpiredUploads() },
      { name: WATCHED_SWEEP_TASK, everyMs: WATCHED_SWEEP_MS, run: () => mediaSweep.run() },
      // rule 4's cache keeps 30 days; older resolutions are only dead weight
      { name: 'media.resolutions-prune', everyMs: 24 * 60 * 60 * 1000, run: () => resolutions.prune(RESOLUTION_TTL_MS) },
    ],
    // members' libraries a stopped Hearth left half set up carry on where they were
    start: () => mediaExport.start(),
    close: async () => {
      await mediaExport.stop();
      await mediaClients.close();
    },
  });
}

/** The app's version from package.json (Plex shows it in the account's Authorized Devices). */
function readVersion(rootDir: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { version?: string }).version ?? '0';
  } catch {
    return '0';
  }
}
