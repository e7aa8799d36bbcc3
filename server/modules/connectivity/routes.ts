// /api/connectivity (every member: is offline mode on, and who switched it) and
// /api/admin/connectivity (the admin's overview and the offline switch). Thin: parse, call, answer.
import type { Request } from 'express';
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { ConnectivityResponse, ConnectivityStatusResponse, PutConnectivityBody } from './schema.js';
import type { ConnectivityService, RequestPort } from './service.js';

export function createConnectivityRoutes(connectivity: ConnectivityService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: ConnectivityStatusResponse }, () => connectivity.status());
  });
}

export function createConnectivityAdminRoutes(connectivity: ConnectivityService, plainPort: number) {
  const via = (req: Request): RequestPort => ({ port: req.socket.localPort ?? 0, secure: req.secure, plainPort });
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: ConnectivityResponse }, (req) => connectivity.overview(actorOf(req), via(req)));
    r.put('/', { access: 'admin', response: ConnectivityResponse }, (req) => connectivity.setOfflineMode(actorOf(req), parse(PutConnectivityBody, req.body), via(req)));
  });
}
