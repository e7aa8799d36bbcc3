// /api/mediaserver: the connection's routes (status, the shared connection, PIN flows, each
// member's link). The other parts of the module mount their own routes beside these
// (routes-library.ts, routes-proxy.ts, routes-export.ts) in api-router.ts. No answer carries a token.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { MediaConnectionService } from './connection.js';
import { ConfigBody, ConfigView, MediaStatus } from './schema.js';

export function createMediaConnectionRoutes(connection: MediaConnectionService) {
  return defineRoutes((r) => {
    r.get('/status', { access: 'user', response: MediaStatus }, (req) => connection.status(actorOf(req)));

    r.get('/config', { access: 'admin', response: ConfigView }, (req) => connection.config(actorOf(req)));
    r.post('/config', { access: 'admin', response: ConfigView }, (req) => connection.setConfig(actorOf(req), parse(ConfigBody, req.body)));
  });
}
