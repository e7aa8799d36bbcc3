import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { ItemIdParams, ItemsBody, SetFeatureBody } from './schema.js';
import type { FeaturesService } from './service.js';

/** /api/app-features — the feature-flag map, and the admin toggle. */
export function createAppFeatureRoutes(features: FeaturesService) {
  return defineRoutes((r) => {
    r.get('/', 'user', async () => ({ features: await features.flags() }));
    r.put('/:id', 'admin', async (req) => ({
      features: await features.setFlag(actorOf(req), parse(ItemIdParams, req.params).id, parse(SetFeatureBody, req.body).enabled),
    }));
  });
}

/** POST /api/jobs/enqueue — a set of feature items into the queue. */
export function createEnqueueRoutes(features: FeaturesService) {
  return defineRoutes((r) => {
    r.post('/enqueue', 'admin', async (req, res) => {
      const jobs = await features.enqueueItems(actorOf(req), parse(ItemsBody, req.body).items);
      res.status(202);
      return { jobs };
    });
  });
}

/** /api/admin/install, /api/admin/uninstall and the catalog view for the Features admin page. */
export function createFeatureAdminRoutes(features: FeaturesService) {
  return defineRoutes((r) => {
    r.get('/features', 'admin', () => features.plan());
    r.post('/install', 'admin', async (req, res) => {
      const jobs = await features.enqueueItems(actorOf(req), parse(ItemsBody, req.body).items);
      res.status(202);
      return { jobs };
    });
    r.post('/uninstall', 'admin', (req) => features.uninstall(actorOf(req), parse(ItemsBody, req.body).items));
  });
}
