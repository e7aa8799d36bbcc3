import type { Response } from 'express';
import { defineRoutes, events } from '../../http/routes.js';
import type { SseRegistry } from '../../http/sse.js';
import type { BootService } from './boot.js';
import { BootEvents, ReadyResponse } from './schema.js';

export function createSystemRoutes(boot: BootService, sse: SseRegistry) {
  return defineRoutes((r) => {
    r.get('/ready', { access: 'none', response: ReadyResponse }, (_req, res: Response) => {
      res.status(boot.isDone ? 200 : 503);
      return { done: boot.isDone };
    });

    r.get('/boot', { access: 'none', response: events(BootEvents) }, (req, res) => sse.run(req, res, (open) => boot.channel.pipeTo(open())));
  });
}
