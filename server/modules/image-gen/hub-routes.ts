// The model hub's admin routes under /api/admin/image-loras: search, import (a stream that follows
// the durable download queue until the LoRA is registered) and the hub API key, which is never
// answered: GET says whether one is set.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, events, NO_CONTENT } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import { parse } from '../../http/validate.js';
import type { ModelHubService } from './hub-service.js';
import { HubImportBody, HubImportEvents, HubKeyBody, HubKeyResponse, HubSearchBody, HubSearchResponse } from './schema.js';

export function createImageHubRoutes(hub: ModelHubService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.post('/civitai-search', { access: 'admin', response: HubSearchResponse }, (req) => hub.search(actorOf(req), parse(HubSearchBody, req.body)));

    r.post('/civitai-import', { access: 'admin', response: events(HubImportEvents) }, (req, res) =>
      sse.run(req, res, async (open) => {
        const { externalId } = parse(HubImportBody, req.body);
        const started = await hub.startImport(actorOf(req), externalId);
        const stream = open();
        await hub.watch(started, { send: (event, data) => stream.send(event, data), signal: stream.signal });
      }),
    );

    r.get('/hub-key', { access: 'admin', response: HubKeyResponse }, (req) => hub.keyStatus(actorOf(req)));
    r.put('/hub-key', { access: 'admin', response: HubKeyResponse }, (req) => hub.setKey(actorOf(req), parse(HubKeyBody, req.body).key));
    r.delete('/hub-key', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await hub.clearKey(actorOf(req));
      res.status(204);
    });
  });
}
