// The inventory's AI routes under /api/home: identify a label photo (fields for review), Ask the
// manual (a streamed answer) and the maintenance drafts read from the manual. Every signed-in
// member may use them: the inventory is the household's.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { HomeIdentifyService } from './identify.js';
import { DeviceIdParams, IdentifyBody, IdentifyResponse } from './schema.js';

export interface HomeAiServices {
  identify: HomeIdentifyService;
}

export function createHomeAiRoutes(ai: HomeAiServices) {
  return defineRoutes((r) => {
    r.post('/devices/:id/identify', { access: 'user', response: IdentifyResponse }, (req) =>
      ai.identify.identify(actorOf(req), parse(DeviceIdParams, req.params).id, parse(IdentifyBody, req.body ?? {}).fileId),
    );
  });
}
