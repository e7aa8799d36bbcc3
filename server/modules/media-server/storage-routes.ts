// /api/admin/storage-locations (admin): the folders members' private libraries live in, and the
// check that the media server sees each one at its mapped path (rule 3).
import { actorOf } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { MappingCheckResponse, StorageLocationBody, StorageLocationParams, StorageLocationPatch, StorageLocationResponse, StorageLocationsResponse } from './schema.js';
import type { StorageLocationsService } from './storage-service.js';

export function createStorageLocationRoutes(storage: StorageLocationsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: StorageLocationsResponse }, async (req) => ({ locations: await storage.list(actorOf(req)) }));

    r.post('/', { access: 'admin', response: StorageLocationResponse }, async (req, res) => {
      const location = await storage.create(actorOf(req), parse(StorageLocationBody, req.body));
      res.status(201);
      return { location };
    });

    r.patch('/:id', { access: 'admin', response: StorageLocationResponse }, async (req) => ({
      location: await storage.update(actorOf(req), parse(StorageLocationParams, req.params).id, parse(StorageLocationPatch, req.body)),
    }));

    r.delete('/:id', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await storage.remove(actorOf(req), parse(StorageLocationParams, req.params).id);
      res.status(204);
    });

    r.post('/:id/check', { access: 'admin', response: MappingCheckResponse }, async (req) => storage.check(actorOf(req), parse(StorageLocationParams, req.params).id));
  });
}
