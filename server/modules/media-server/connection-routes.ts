// /api/mediaserver: the connection's routes (status, the shared connection, PIN flows, each
// member's link). The other parts of the module mount their own routes beside these
// (library-routes.ts, proxy-routes.ts, export-routes.ts, home-videos-routes.ts, storage-routes.ts), all mounted by module.ts. No answer carries a token.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { MediaConnectionService } from './connection-service.js';
import { ConfigBody, ConfigView, DiscoverBody, DiscoverResponse, LinkBody, MediaStatus, MeView, PinParams, PinView } from './schema.js';

export function createMediaConnectionRoutes(connection: MediaConnectionService) {
  return defineRoutes((r) => {
    r.get('/status', { access: 'user', response: MediaStatus }, (req) => connection.status(actorOf(req)));

    r.get('/config', { access: 'admin', response: ConfigView }, (req) => connection.config(actorOf(req)));
    r.post('/config', { access: 'admin', response: ConfigView }, (req) => connection.setConfig(actorOf(req), parse(ConfigBody, req.body)));

    // the PIN flow, for a member's own link and for an admin finding the household's server
    r.post('/auth/pin', { access: 'user', response: PinView }, async (req, res) => {
      const pin = await connection.createPin(actorOf(req));
      res.status(201);
      return pin;
    });
    r.get('/auth/pin/:id', { access: 'user', response: PinView }, (req) => connection.pin(actorOf(req), parse(PinParams, req.params).id));
    r.post('/auth/discover', { access: 'admin', response: DiscoverResponse }, (req) => connection.discover(actorOf(req), parse(DiscoverBody, req.body ?? {}).pinId));

    r.get('/me', { access: 'user', response: MeView }, (req) => connection.me(actorOf(req)));
    r.post('/me/link', { access: 'user', response: MeView }, (req) => connection.link(actorOf(req), parse(LinkBody, req.body).pinId));
    r.delete('/me', { access: 'user', response: MeView }, (req) => connection.unlink(actorOf(req)));
  });
}
