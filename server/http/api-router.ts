// Mounts under /api the routes every module's manifest declares (modules/<x>/module.ts), in start
// order, and exposes the full route table. Public content (the same for whoever asks) is mounted
// before the session lookup; everything else after it.
import express, { type Router } from 'express';
import type { Deps } from '../container.js';
import { tableWrites } from '../db/connection.js';
import { sessionMiddleware } from './auth.js';
import { noRoute } from './error-handler.js';
import { originGuard, requestLog } from './guards.js';
import type { FeatureRoutes, RouteInfo } from './routes.js';

type Mounts = Array<[prefix: string, routes: FeatureRoutes]>;

/** Every module's routes behind the session lookup: the `first` ones, then the rest, each in module order. */
export function featureRoutes(d: Pick<Deps, 'modules'>): Mounts {
  const behind = d.modules.flatMap((m) => (m.routes ?? []).filter((r) => !r.public));
  return [...behind.filter((r) => r.first), ...behind.filter((r) => !r.first)].map((r): [string, FeatureRoutes] => [r.prefix, r.routes]);
}

/**
 * Public content that is the same for whoever asks (the archive pages and images, GET only):
 * mounted before the session lookup, so the cookies a same-origin page carries cost nothing.
 */
export function publicContentRoutes(d: Pick<Deps, 'modules'>): Mounts {
  return d.modules.flatMap((m) => (m.routes ?? []).filter((r) => r.public).map((r): [string, FeatureRoutes] => [r.prefix, r.routes]));
}

export function createApiRouter(d: Deps): { router: Router; table: RouteInfo[] } {
  const router = express.Router();
  const table: RouteInfo[] = [];
  const mount = (list: Mounts) => {
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
