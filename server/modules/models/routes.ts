import { actorOf } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import {
  AccessUserParams,
  MemberModelAccessResponse,
  ModelAccessResponse,
  ModelNameParams,
  ModelsResponse,
  PullModelBody,
  PullModelResponse,
  SelectModelBody,
  SetModelAccessBody,
} from './schema.js';
import type { ModelsService } from './service.js';

/** /api/models: the installed models, the household's choices, pulls, deletes and per-member access. */
export function createModelRoutes(models: ModelsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: ModelsResponse }, (req) => models.list(actorOf(req)));

    r.post('/select', { access: 'admin', response: ModelsResponse }, (req) => models.select(actorOf(req), parse(SelectModelBody, req.body)));

    r.post('/pull', { access: 'admin', response: PullModelResponse }, async (req, res) => {
      const pulled = await models.pull(actorOf(req), parse(PullModelBody, req.body).model);
      res.status(pulled.alreadyQueued ? 200 : 202);
      return pulled;
    });

    r.get('/access', { access: 'admin', response: ModelAccessResponse }, (req) => models.listAccess(actorOf(req)));

    r.put('/access/:userId', { access: 'admin', response: MemberModelAccessResponse }, async (req) => ({
      member: await models.setAccess(actorOf(req), parse(AccessUserParams, req.params).userId, parse(SetModelAccessBody, req.body).allowed),
    }));

    r.delete('/:name', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await models.remove(actorOf(req), parse(ModelNameParams, req.params).name);
      res.status(204).end();
    });
  });
}
