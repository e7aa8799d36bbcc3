// The locale module (issue 39): the household's language and region (/api/admin/locale) and each
// member's own language and units (/api/auth/me/locale). Other modules read the household's time
// zone and a member's units through ports the container fills from this module's service.
import { defineModule, type Platform } from '../module.js';
import { createLocaleAdminRoutes, createMemberLocaleRoutes } from './routes.js';
import { LocaleService } from './service.js';

export function createLocaleModule(p: Platform) {
  const locale = new LocaleService({ settings: p.settings, preferences: p.preferences });
  return defineModule({
    name: 'locale',
    routes: [
      { prefix: '/admin/locale', routes: createLocaleAdminRoutes(locale) },
      { prefix: '/auth/me/locale', routes: createMemberLocaleRoutes(locale) },
    ],
    services: { locale },
  });
}
