// The models module: the runtime's models, their details, who may use which, and the boot steps
// that check and repair them.
import { defineModule, type Platform } from '../module.js';
import { bootSteps } from './boot-steps.js';
import { ModelDetailsCache } from './details.js';
import type { ModelsPorts } from './ports.js';
import { ModelPulls } from './pulls.js';
import { createModelRoutes } from './routes.js';
import { visionModelsOf } from './roles.js';
import { ModelsService } from './service.js';
import { ModelAccessStore } from './store.js';

export function createModelsModule(p: Platform, ports: ModelsPorts) {
  // the one place models are pulled into the runtime: the queue's model jobs and boot's repairs
  const pulls = new ModelPulls(p.modelRuntime);
  const modelDetails = new ModelDetailsCache({ runtime: p.modelRuntime, now: () => p.clock.now().getTime() });
  const models = new ModelsService({
    runtime: p.modelRuntime,
    details: modelDetails,
    features: ports.features,
    downloads: ports.downloads,
    auth: ports.users,
    store: new ModelAccessStore(p.db),
    hardware: p.hardware,
    clock: p.clock,
    offline: p.offline,
    preferredVisionModels: visionModelsOf(ports.catalog),
  });
  return defineModule({
    name: 'models',
    routes: [{ prefix: '/models', routes: createModelRoutes(models) }],
    services: { models, modelDetails, pulls },
    bootSteps: bootSteps({ runtime: p.modelRuntime, pulls, features: ports.features, setup: ports.setup, offline: p.offline }),
    // a deleted member's model allow-list goes with them
    listeners: [{ event: 'user.deleted', run: (e) => models.onUserDeleted(e.userId) }],
  });
}
