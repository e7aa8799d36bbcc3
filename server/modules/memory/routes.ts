// /api/chat/memory (the caller's own memories) and /api/admin/memory (the household's switch).
import { actorOf } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { AddMemoryBody, MemoriesResponse, MemoryParams, MemoryResponse, MemorySetting, MemorySettingBody } from './schema.js';
import type { MemoryService } from './service.js';

export function createMemoryRoutes(memory: MemoryService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: MemoriesResponse }, (req) => memory.list(actorOf(req)));
    r.post('/', { access: 'user', response: MemoryResponse }, async (req, res) => {
      const added = await memory.add(actorOf(req), parse(AddMemoryBody, req.body).text);
      res.status(201);
      return { memory: added };
    });
    r.delete('/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await memory.remove(actorOf(req), parse(MemoryParams, req.params).id);
    });
  });
}

export function createMemoryAdminRoutes(memory: MemoryService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: MemorySetting }, (req) => memory.setting(actorOf(req)));
    r.put('/', { access: 'admin', response: MemorySetting }, (req) => memory.setEnabled(actorOf(req), parse(MemorySettingBody, req.body).enabled));
  });
}
