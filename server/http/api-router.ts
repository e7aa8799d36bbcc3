// Mounts every feature router under /api, in one typed list, and exposes the full route table.
import express, { type Router } from 'express';
import type { Deps } from '../container.js';
import { tableWrites } from '../db/connection.js';
import { createAuthRoutes, createUserAdminRoutes } from '../modules/auth/routes.js';
import { createJobRoutes, createQueueAdminRoutes } from '../modules/downloads/routes.js';
import { createAppFeatureRoutes, createEnqueueRoutes, createFeatureAdminRoutes } from '../modules/features/routes.js';
import { createArchiveAdminRoutes, createArchiveContentRoutes, createArchiveRoutes } from '../modules/archives/routes.js';
import { createChatRoutes, createProjectRoutes } from '../modules/chat/routes.js';
import { createHomeInventoryRoutes } from '../modules/home-inventory/routes.js';
import { createHomeAiRoutes } from '../modules/home-inventory/ai-routes.js';
import { createHomeLookupRoutes } from '../modules/home-inventory/lookup-routes.js';
import { createImageEngineAdminRoutes, createImageLoraAdminRoutes } from '../modules/image-gen/admin-routes.js';
import { createImageRoutes } from '../modules/image-gen/routes.js';
import { createHomeLayoutRoutes } from '../modules/home-layout/routes.js';
import { createImageHubRoutes } from '../modules/image-gen/hub-routes.js';
import { createLegacyBookmarkRoutes, createLegacyProxyRoutes, createReaderAdminRoutes, createReaderRoutes } from '../modules/reader/routes.js';
import { createMediaConnectionRoutes } from '../modules/media-server/routes.js';
import { createStorageLocationRoutes } from '../modules/media-server/admin-routes.js';
import { createMediaExportRoutes } from '../modules/media-server/export-routes.js';
import { createHomeVideoRoutes } from '../modules/media-server/upload-routes.js';
import { createMediaLibraryRoutes } from '../modules/media-server/library-routes.js';
import { createMediaProxyRoutes } from '../modules/media-server/proxy-routes.js';
import { createModelRoutes } from '../modules/models/routes.js';
import { createNotificationRoutes } from '../modules/notifications/routes.js';
import { createSearchRoutes } from '../modules/search/routes.js';
import { createSetupRoutes } from '../modules/setup/routes.js';
import { createAppStoreRoutes, createToolRoutes } from '../modules/tools/routes.js';
import { createSystemRoutes } from '../modules/system/routes.js';
import { sessionMiddleware } from './auth.js';
import { noRoute } from './error-handler.js';
import { originGuard, requestLog } from './guards.js';
import type { FeatureRoutes, RouteInfo } from './routes.js';

export function featureRoutes(d: Deps): Array<[prefix: string, routes: FeatureRoutes]> {
  return [
    ['/auth', createAuthRoutes(d.auth, d.limits)],
    ['/admin/users', createUserAdminRoutes(d.auth)],
    ['/setup', createSetupRoutes(d.setup, d.sse, d.limits, d.setupChecklist)],
    ['/system', createSystemRoutes(d.boot, d.sse, { host: d.config.host, interfaces: d.networkInterfaces })],
    ['/tools', createToolRoutes(d.tools)],
    ['/app-store', createAppStoreRoutes(d.tools)],
    ['/notifications', createNotificationRoutes(d.notifications)],
    ['/home-layout', createHomeLayoutRoutes(d.homeLayout)],
    ['/jobs', createJobRoutes(d.downloads)],
    ['/jobs', createEnqueueRoutes(d.features)],
    ['/models', createModelRoutes(d.models)],
    ['/app-features', createAppFeatureRoutes(d.features)],
    ['/admin', createFeatureAdminRoutes(d.features)],
    ['/admin/queue', createQueueAdminRoutes(d.downloads)],
    ['/archives', createArchiveRoutes(d.archives)],
    ['/admin/archives', createArchiveAdminRoutes(d.archives, d.archiveDownloads, d.archiveRuntime, d.sse)],
    ['/search', createSearchRoutes(d.search)],
    ['/reader', createReaderRoutes(d.reader, d.sse, d.readerAi)],
    ['/admin/reader', createReaderAdminRoutes(d.reader)],
    ['/chat', createChatRoutes(d.chat, d.chatStream, d.sse)],
    ['/projects', createProjectRoutes(d.chat)],
    ['/home', createHomeInventoryRoutes(d.home)],
    ['/home', createHomeAiRoutes(d.homeAi, d.sse)],
    ['/home', createHomeLookupRoutes(d.homeLookup, d.home.devices, d.webSearch)],
    ['/admin/image-loras', createImageHubRoutes(d.imageHub, d.sse)],
    ['/image', createImageRoutes(d.image, d.sse)],
    ['/admin/image-loras', createImageLoraAdminRoutes(d.image.loras, { maxLoraBytes: d.tuning.imageLoraMaxBytes })],
    ['/admin/image-engine', createImageEngineAdminRoutes(d.image.engine)],
    ['/mediaserver', createMediaConnectionRoutes(d.mediaConnection)],
    ['/mediaserver', createMediaExportRoutes(d.mediaExport)],
    ['/mediaserver', createHomeVideoRoutes(d.homeVideos)],
    ['/admin/storage-locations', createStorageLocationRoutes(d.mediaStorage)],
    ['/mediaserver', createMediaLibraryRoutes(d.mediaLibrary)],
    ['/mediaserver', createMediaProxyRoutes(d.mediaProxy)],
    // retired aliases, thin over the same service
    ['/bookmarks', createLegacyBookmarkRoutes(d.reader)],
    ['/admin/bookmarks', createReaderAdminRoutes(d.reader)],
    ['/proxy', createLegacyProxyRoutes(d.reader)],
  ];
}

/**
 * Public content that is the same for whoever asks (the archive pages and images, GET only):
 * mounted before the session lookup, so the cookies a same-origin page carries cost nothing.
 */
export function publicContentRoutes(d: Deps): Array<[prefix: string, routes: FeatureRoutes]> {
  return [['/archives/view', createArchiveContentRoutes(d.archiveContent)]];
}

export function createApiRouter(d: Deps): { router: Router; table: RouteInfo[] } {
  const router = express.Router();
  const table: RouteInfo[] = [];
  const mount = (list: Array<[string, FeatureRoutes]>) => {
    for (const [prefix, routes] of list) {
      router.use(prefix, routes.router);
      for (const r of routes.table) table.push({ ...r, path: `/api${prefix}${r.path === '/' ? '' : r.path}` });
    }
  };
  router.use(requestLog(d.logger.child('http')));
  mount(publicContentRoutes(d));
  router.use(originGuard());
  router.use(sessionMiddleware(d.auth, { changes: tableWrites(d.db, ['sessions', 'users']), now: () => d.clock.now().getTime() }));
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  mount(featureRoutes(d));
  router.use(noRoute);
  return { router, table };
}
