// /api/companions (the caller's roster and favorites) and /api/admin/companions (the roster, grants).
import { actorOf } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { AdminCompanionResponse, AdminCompanionsResponse, CompanionBody, CompanionParams, CompanionPatchBody, CompanionsResponse, FavoriteResponse, GrantBody, GrantParams } from './schema.js';
import type { CompanionsService } from './service.js';

export function createCompanionRoutes(companions: CompanionsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: CompanionsResponse }, async (req) => ({ companions: await companions.list(actorOf(req)) }));
    r.post('/:id/favorite', { access: 'user', response: FavoriteResponse }, (req) => companions.setFavorite(actorOf(req), parse(CompanionParams, req.params).id, true));
    r.delete('/:id/favorite', { access: 'user', response: FavoriteResponse }, (req) => companions.setFavorite(actorOf(req), parse(CompanionParams, req.params).id, false));
  });
}

export function createCompanionAdminRoutes(companions: CompanionsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: AdminCompanionsResponse }, async (req) => ({ companions: await companions.adminList(actorOf(req)) }));
    r.post('/', { access: 'admin', response: AdminCompanionResponse }, async (req, res) => {
      const companion = await companions.create(actorOf(req), parse(CompanionBody, req.body));
      res.status(201);
      return { companion };
    });
    r.patch('/:id', { access: 'admin', response: AdminCompanionResponse }, async (req) => ({
      companion: await companions.update(actorOf(req), parse(CompanionParams, req.params).id, parse(CompanionPatchBody, req.body)),
    }));
    r.delete('/:id', { access: 'admin', response: NO_CONTENT }, async (req) => {
      await companions.remove(actorOf(req), parse(CompanionParams, req.params).id);
    });
    r.put('/:id/grants/:userId', { access: 'admin', response: AdminCompanionResponse }, async (req) => {
      const { id, userId } = parse(GrantParams, req.params);
      return { companion: await companions.setGrant(actorOf(req), id, userId, parse(GrantBody, req.body).granted) };
    });
  });
}
