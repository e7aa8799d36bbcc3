// The features module: the catalog of optional features (models, files), what is installed, and
// which models are chosen for chat and the router.
import { defineModule, type Platform } from '../module.js';
import { Catalog } from './catalog.js';
import { ModelRolesService } from './model-roles-service.js';
import type { FeaturesPorts } from './ports.js';
import { createAppFeatureRoutes, createEnqueueRoutes, createFeatureAdminRoutes } from './routes.js';
import { RuntimeLook } from './runtime-look.js';
import { FeaturesService } from './service.js';

export function createFeaturesModule(p: Platform, ports: FeaturesPorts) {
  const catalog = Catalog.load(p.config.featureCatalogPath);
  const look = new RuntimeLook({ runtime: p.modelRuntime, clock: p.clock, ttlMs: p.tuning.runtimeLookTtlMs });
  const roles = new ModelRolesService({
    // the models module's details cache (built after this module; asked only when a look needs it)
    modelCapabilities: async (model) => (await ports.modelDetails().get(model)).capabilities,
    catalog,
    settings: p.settings,
    runtime: p.modelRuntime,
    clock: p.clock,
    hardware: p.hardware,
    logger: p.logger.child('features'),
    runtimeLookTtlMs: p.tuning.runtimeLookTtlMs,
  });
  const features = new FeaturesService({
    catalog,
    settings: p.settings,
    downloads: ports.downloads,
    runtime: p.modelRuntime,
    look,
    roles,
    clock: p.clock,
    hardware: p.hardware,
    logger: p.logger.child('features'),
    chatSpeed: (model) => ports.chatSpeed(model),
  });
  return defineModule({
    name: 'features',
    routes: [
      { prefix: '/jobs', routes: createEnqueueRoutes(features) },
      { prefix: '/app-features', routes: createAppFeatureRoutes(features) },
      { prefix: '/admin', routes: createFeatureAdminRoutes(features) },
    ],
    services: { features, catalog },
    listeners: [{ event: 'download.completed', run: (e) => features.onDownloaded(e.itemId) }],
  });
}
