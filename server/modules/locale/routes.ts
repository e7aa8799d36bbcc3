import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { EffectiveLocaleResponse, LocaleSettingsResponse, SetLocaleBody, SetMemberLocaleBody } from './schema.js';
import type { LocaleService } from './service.js';

export function createLocaleAdminRoutes(locale: LocaleService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: LocaleSettingsResponse }, (req) => locale.settings(actorOf(req)));
    r.put('/', { access: 'admin', response: LocaleSettingsResponse }, (req) => locale.set(actorOf(req), parse(SetLocaleBody, req.body)));
  });
}

/** Mounted at /auth/me/locale: the signed-in member's own language and units. */
export function createMemberLocaleRoutes(locale: LocaleService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: EffectiveLocaleResponse }, async (req) => ({ locale: await locale.effective(actorOf(req)) }));
    r.put('/', { access: 'user', response: EffectiveLocaleResponse }, async (req) => ({ locale: await locale.setOverride(actorOf(req), parse(SetMemberLocaleBody, req.body)) }));
  });
}
