// GET/PUT /api/voice (engines, voices, the caller's choices) and GET/PUT /api/admin/voice.
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { VoiceConfigService } from './config-service.js';
import { AdminVoiceResponse, AdminVoiceUpdate, VoiceChoicesUpdate, VoiceConfigResponse } from './schema.js';

export function createVoiceConfigRoutes(config: VoiceConfigService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: VoiceConfigResponse }, (req) => config.config(actorOf(req)));
    r.put('/', { access: 'user', response: VoiceConfigResponse }, (req) => config.updateChoices(actorOf(req), parse(VoiceChoicesUpdate, req.body)));
  });
}

export function createAdminVoiceRoutes(config: VoiceConfigService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: AdminVoiceResponse }, (req) => config.adminSettings(actorOf(req)));
    r.put('/', { access: 'admin', response: AdminVoiceResponse }, (req) => config.updateAdmin(actorOf(req), parse(AdminVoiceUpdate, req.body)));
  });
}
