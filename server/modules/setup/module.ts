// The setup module: the first admin, the welcome steps and the admin's setup checklist.
import { createRequestLimit } from '../../http/rate-limit.js';
import { SYSTEM_ACTOR } from '../../actor.js';
import { defineModule, type Platform } from '../module.js';
import { SetupChecklistService } from './checklist-service.js';
import { SETUP_MODELS_MISSING } from './install.js';
import type { SetupPorts } from './ports.js';
import { createSetupRoutes } from './routes.js';
import { SetupService } from './service.js';

export function createSetupModule(p: Platform, ports: SetupPorts) {
  const setupChecklist = new SetupChecklistService({ runtime: p.modelRuntime, features: ports.features, downloads: ports.downloads, auth: ports.users });
  const setup = new SetupService({
    auth: ports.users,
    settings: p.settings,
    runtime: p.modelRuntime,
    conditions: ports.conditions,
    searchPath: p.config.searchPath,
    features: ports.features,
    downloads: ports.downloads,
    catalog: ports.catalog,
    hardware: p.hardware,
  });
  // setup without the models ends once the checklist's models item is done
  ports.conditions.watch(SETUP_MODELS_MISSING, async () => ((await setupChecklist.checklist(SYSTEM_ACTOR)).items.find((i) => i.key === 'models')?.done ? null : true));
  // requests per client on the anonymous setup routes
  const limit = createRequestLimit({ perMinute: p.tuning.setupRequestsPerMinute ?? 60, message: 'Too many setup requests from this device.' });
  return defineModule({
    name: 'setup',
    routes: [{ prefix: '/setup', routes: createSetupRoutes(setup, p.sse, { setup: limit }, setupChecklist) }],
    services: { setup },
    // a finished download may end a condition (the models setup left out, failed downloads
    // retried); listened here, after the features module marked the download installed
    listeners: [{ event: 'download.completed', run: () => ports.conditions.sweep() }],
    close: async () => limit.close(),
  });
}
