// The inventory's AI routes under /api/home: identify a label photo (fields for review), Ask the
// manual (a streamed answer) and the maintenance drafts read from the manual. Every signed-in
// member may use them: the inventory is the household's.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, events } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import type { HomeAskService } from './ask-service.js';
import type { HomeIdentifyService } from './identify-service.js';
import type { HomeMaintenanceService } from './maintenance-service.js';
import { AskBody, AskEvents, DeviceIdParams, IdentifyBody, IdentifyResponse, MaintenanceResponse } from './schema.js';

export interface HomeAiServices {
  identify: HomeIdentifyService;
  ask: HomeAskService;
  maintenance: HomeMaintenanceService;
}

export function createHomeAiRoutes(ai: HomeAiServices, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.post('/devices/:id/identify', { access: 'user', response: IdentifyResponse }, (req) =>
      ai.identify.identify(actorOf(req), parse(DeviceIdParams, req.params).id, parse(IdentifyBody, req.body ?? {}).fileId),
    );

    r.post('/devices/:id/ask', { access: 'user', response: events(AskEvents) }, (req, res) =>
      sse.run(req, res, async (open) => {
        const { id } = parse(DeviceIdParams, req.params);
        const { question } = parse(AskBody, req.body);
        const answer = await ai.ask.prepare(actorOf(req), id, question);
        const stream = open();
        await answer.run({ send: (event, data) => stream.send(event, data), signal: stream.signal });
      }),
    );

    r.get('/devices/:id/maintenance', { access: 'user', response: MaintenanceResponse }, (req) => ai.maintenance.suggest(actorOf(req), parse(DeviceIdParams, req.params).id));
  });
}
