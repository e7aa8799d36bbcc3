// The companions module: /api/companions and /api/admin/companions; chat asks CompanionsService
// which companion an answer speaks as.
import { defineModule, type Platform } from '../module.js';
import type { CompanionsPorts } from './ports.js';
import { createCompanionAdminRoutes, createCompanionRoutes } from './routes.js';
import { CompanionsService } from './service.js';
import { CompanionsStore } from './store.js';

export function createCompanionsModule(p: Platform, ports: CompanionsPorts) {
  const companions = new CompanionsService({ ...ports, store: new CompanionsStore(p.db), clock: p.clock });
  return defineModule({
    name: 'companions',
    routes: [
      { prefix: '/companions', routes: createCompanionRoutes(companions) },
      { prefix: '/admin/companions', routes: createCompanionAdminRoutes(companions) },
    ],
    services: { companions },
  });
}
