import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { CreateSkillBody, DeletedResponse, PatchSkillBody, SkillIdParams, SkillResponse, SkillsResponse } from './schema.js';
import type { SkillsService } from './service.js';

export function createSkillRoutes(skills: SkillsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: SkillsResponse }, async (req) => ({ skills: await skills.list(actorOf(req)), tools: skills.tools() }));
    r.get('/:id', { access: 'user', response: SkillResponse }, async (req) => ({ skill: await skills.get(actorOf(req), parse(SkillIdParams, req.params).id) }));
    r.post('/', { access: 'user', response: SkillResponse }, async (req, res) => {
      const skill = await skills.create(actorOf(req), parse(CreateSkillBody, req.body));
      res.status(201);
      return { skill };
    });
    r.patch('/:id', { access: 'user', response: SkillResponse }, async (req) => ({ skill: await skills.update(actorOf(req), parse(SkillIdParams, req.params).id, parse(PatchSkillBody, req.body)) }));
    r.delete('/:id', { access: 'user', response: DeletedResponse }, async (req) => ({ deleted: await skills.remove(actorOf(req), parse(SkillIdParams, req.params).id) }));
  });
}
