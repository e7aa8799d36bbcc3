// The content module: one safety envelope per member. /api/content, /api/admin/content and
// /api/privacy; other modules read a member's dials and adult state through ContentService.
import { defineModule, type Platform } from '../module.js';
import type { ContentPorts } from './ports.js';
import { createContentAdminRoutes, createContentRoutes, createPrivacyRoutes } from './routes.js';
import { ContentService } from './service.js';
import { ContentStore } from './store.js';

export function createContentModule(p: Platform, ports: ContentPorts) {
  const content = new ContentService({ store: new ContentStore(p.db), users: ports.users, clock: p.clock });
  return defineModule({
    name: 'content',
    routes: [
      { prefix: '/content', routes: createContentRoutes(content) },
      { prefix: '/admin/content', routes: createContentAdminRoutes(content) },
      { prefix: '/privacy', routes: createPrivacyRoutes(content) },
    ],
    services: { content },
    tasks: [{ name: 'content.adult-state-sweep', everyMs: 60 * 60_000, run: () => content.sweep() }],
  });
}
