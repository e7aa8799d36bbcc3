import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { JobsResponse } from '../downloads/schema.js';
import { FeatureFlagsResponse, FeaturePlan, ItemIdParams, ItemsBody, SetFeatureBody, UninstallResponse } from './schema.js';
import type { FeaturesService } from './service.js';

/** /api/app-features — the feature-flag map, and the admin toggle. */
export function createAppFeatureRoutes(features: FeaturesService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: FeatureFlagsResponse }, async () => ({ features: await features.flags() }));
    r.put('/:id', { access: 'admin', response: FeatureFlagsResponse }, async (req) => ({
      features: await features.setFlag(actorOf(req), parse(ItemIdParams, req.params).id, parse(SetFeatureBody, req.body).enabled),
    }));
  });
}

/** POST /api/jobs/enqueue — a set of feature items into the queue. */
export function createEnqueueRoutes(features: FeaturesService) {
  return defineRoutes((r) => {
    r.post('/enqueue', { access: 'admin', response: JobsResponse }, async (req, res) => {
      const jobs = await features.enqueueItems(actorOf(req), parse(ItemsBody, req.body).items);
      res.status(202);
      return { jobs };
    });
  });
}

/** /api/admin/install, /api/admin/uninstall and the catalog view for the Features admin page. */
export function createFeatureAdminRoutes(features: FeaturesService) {
  return defineRoutes((r) => {
    r.get('/features', { access: 'admin', response: FeaturePlan }, () => features.plan());
    r.post('/install', { access: 'admin', response: JobsResponse }, async (req, res) => {
      const jobs = await features.enqueueItems(actorOf(req), parse(ItemsBody, req.body).items);
      res.status(202);
      return { jobs };
    });
    r.post('/uninstall', { access: 'admin', response: UninstallResponse }, (req) => features.uninstall(actorOf(req), parse(ItemsBody, req.body).items));
  });
}
