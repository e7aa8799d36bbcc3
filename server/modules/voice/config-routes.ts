// GET/PUT /api/voice (engines, voices, the caller's choices) and GET/PUT /api/admin/voice.
import { actorOf } from '../../http/auth.js';
import { defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { VoiceConfigService } from './config-service.js';
import type { RemoteEnginesService } from './remotes-service.js';
import { AddRemoteEngine, AdminVoiceResponse, AdminVoiceUpdate, EngineTestResponse, RemoteEngineResponse, VoiceChoicesUpdate, VoiceConfigResponse } from './schema.js';

export function createVoiceConfigRoutes(config: VoiceConfigService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: VoiceConfigResponse }, (req) => config.config(actorOf(req)));
    r.put('/', { access: 'user', response: VoiceConfigResponse }, (req) => config.updateChoices(actorOf(req), parse(VoiceChoicesUpdate, req.body)));
  });
}

export function createAdminVoiceRoutes(config: VoiceConfigService, remotes: RemoteEnginesService) {
  return defineRoutes((r) => {
    r.post('/engines', { access: 'admin', response: RemoteEngineResponse }, async (req, res) => {
      const engine = await remotes.add(actorOf(req), parse(AddRemoteEngine, req.body));
      res.status(201);
      return { engine };
    });
    r.delete('/engines/:id', { access: 'admin', response: NO_CONTENT }, async (req, res) => {
      await remotes.remove(actorOf(req), String(req.params.id));
      res.status(204).end();
    });
    r.post('/engines/:id/test', { access: 'admin', response: EngineTestResponse }, (req) => remotes.test(actorOf(req), String(req.params.id)));
    r.get('/', { access: 'admin', response: AdminVoiceResponse }, (req) => config.adminSettings(actorOf(req)));
    r.put('/', { access: 'admin', response: AdminVoiceResponse }, (req) => config.updateAdmin(actorOf(req), parse(AdminVoiceUpdate, req.body)));
  });
}
