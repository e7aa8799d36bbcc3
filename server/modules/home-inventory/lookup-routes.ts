// The web lookup's routes under /api/home: start a lookup (202, the device with lookupStatus
// pending or skipped; the run happens in the background and the web app polls the list), and the
// text model's baseline specs for the member to review. Every signed-in member may use both: the
// inventory is the household's.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { HomeLookupService } from './lookup-service.js';
import type { HomeDevicesService } from './service.js';
import { DeviceIdParams, GenerateSpecsResponse, LookupResponse, SetWebSearchBody, WebSearchResponse } from './schema.js';
import type { WebSearchSetting } from './web-search-setting.js';

export function createHomeLookupRoutes(lookup: HomeLookupService, devices: Pick<HomeDevicesService, 'getSummary'>, webSearch: WebSearchSetting) {
  return defineRoutes((r) => {
    // whether a search is set up (every member: the page says why nothing is looked up); the address, for admins
    r.get('/web-search', { access: 'user', response: WebSearchResponse }, async (req) => ({ webSearch: await webSearch.view(actorOf(req)) }));
    r.put('/web-search', { access: 'admin', response: WebSearchResponse }, async (req) => ({ webSearch: await webSearch.set(actorOf(req), parse(SetWebSearchBody, req.body).url) }));

    r.post('/devices/:id/lookup', { access: 'user', response: LookupResponse }, async (req, res) => {
      const actor = actorOf(req);
      const { id } = parse(DeviceIdParams, req.params);
      await lookup.start(actor, id);
      res.status(202);
      return { device: await devices.getSummary(actor, id) };
    });

    r.post('/devices/:id/generate-specs', { access: 'user', response: GenerateSpecsResponse }, async (req) => ({
      specs: await lookup.generateSpecs(actorOf(req), parse(DeviceIdParams, req.params).id),
    }));
  });
}
