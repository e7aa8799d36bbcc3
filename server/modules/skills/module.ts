// The skills module (issue 38): chat instruction packs, the household's and each member's own.
// Chat asks it for the skill an answer uses (ChatPorts.skills).
import { defineModule, type Platform } from '../module.js';
import type { SkillsPorts } from './ports.js';
import { createSkillRoutes } from './routes.js';
import { SkillsService } from './service.js';
import { SkillsStore } from './store.js';

export function createSkillsModule(p: Platform, ports: SkillsPorts) {
  const skills = new SkillsService({ store: new SkillsStore(p.db), clock: p.clock, chatTools: ports.chatTools });
  return defineModule({
    name: 'skills',
    routes: [{ prefix: '/skills', routes: createSkillRoutes(skills) }],
    services: { skills },
  });
}
