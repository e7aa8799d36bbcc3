// The export's routes under /api/mediaserver: provisioning each member's private library (admin),
// the provisioning status of every member, and a member's own sections and their policies.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { MediaExportService } from './export-service.js';
import { AdminSectionsResponse, MySectionsPatch, MySectionsResponse, ProvisionBody, ProvisionResponse } from './schema.js';

export function createMediaExportRoutes(exp: MediaExportService) {
  return defineRoutes((r) => {
    r.post('/admin/provision', { access: 'admin', response: ProvisionResponse }, async (req, res) => {
      const { section, created } = await exp.provision(actorOf(req), parse(ProvisionBody, req.body));
      res.status(created ? 202 : 200);
      return { section };
    });

    r.get('/admin/library-sections', { access: 'admin', response: AdminSectionsResponse }, (req) => exp.adminSections(actorOf(req)));

    r.get('/me/library-sections', { access: 'user', response: MySectionsResponse }, (req) => exp.mySections(actorOf(req)));

    r.patch('/me/library-sections', { access: 'user', response: MySectionsResponse }, (req) => exp.updateMySection(actorOf(req), parse(MySectionsPatch, req.body)));
  });
}
