import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { InstallRequestBody, InstallRequestResponse, SetEnabledBody, ToolIdParams, ToolResponse, ToolsResponse } from './schema.js';
import type { ToolsService } from './service.js';

export function createToolRoutes(tools: ToolsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: ToolsResponse }, async () => ({ tools: await tools.list() }));

    r.put('/:id/enabled', { access: 'admin', response: ToolResponse }, async (req) => {
      const { id } = parse(ToolIdParams, req.params);
      const { enabled } = parse(SetEnabledBody, req.body);
      return { tool: await tools.setEnabled(actorOf(req), id, enabled) };
    });
  });
}

export function createAppStoreRoutes(tools: ToolsService) {
  return defineRoutes((r) => {
    r.post('/request', { access: 'user', response: InstallRequestResponse }, async (req, res) => {
      const result = await tools.requestInstall(actorOf(req), parse(InstallRequestBody, req.body));
      res.status(result.duplicate ? 200 : 201);
      return { ok: true as const, ...result };
    });
  });
}
