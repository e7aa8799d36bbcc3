// The setup module: the first admin, the welcome steps and the admin's setup checklist.
import { createRequestLimit } from '../../http/rate-limit.js';
import { defineModule, type Platform } from '../module.js';
import { SetupChecklistService } from './checklist-service.js';
import type { SetupPorts } from './ports.js';
import { createSetupRoutes } from './routes.js';
import { SetupService } from './service.js';

export function createSetupModule(p: Platform, ports: SetupPorts) {
  const setupChecklist = new SetupChecklistService({ runtime: p.modelRuntime, features: ports.features, downloads: ports.downloads, auth: ports.users });
  const setup = new SetupService({
    auth: ports.users,
    settings: p.settings,
    runtime: p.modelRuntime,
    notifications: ports.notifications,
    searchPath: p.config.searchPath,
    features: ports.features,
    downloads: ports.downloads,
    catalog: ports.catalog,
    hardware: p.hardware,
  });
  // requests per client on the anonymous setup routes
  const limit = createRequestLimit({ perMinute: p.tuning.setupRequestsPerMinute ?? 60, message: 'Too many setup requests from this device.' });
  return defineModule({
    name: 'setup',
    routes: [{ prefix: '/setup', routes: createSetupRoutes(setup, p.sse, { setup: limit }, setupChecklist) }],
    services: { setup },
    close: async () => limit.close(),
  });
}
