// /api/admin/storage (admins): what each area of the data folder holds, free space and the trend;
// POST /cleanup, the safe clean-ups (a dry run first). Thin: parse, call, answer.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { CleanupBody, CleanupResponse, StorageResponse } from './schema.js';
import type { StorageService } from './service.js';

export function createStorageRoutes(storage: StorageService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: StorageResponse }, async (req) => storage.overview(actorOf(req)));
    r.post('/cleanup', { access: 'admin', response: CleanupResponse }, async (req) => storage.cleanup(actorOf(req), parse(CleanupBody, req.body)));
  });
}
