// The tls module: secure connections on the home network (issue 31). The household root and the
// certificates are the platform's (platform/tls/); this module answers what devices and the admin
// ask of them: the status (no auth), the root to install (DER and the iOS profile), the admin's
// choice of certificate, and renewal. The scheduled check follows the LAN addresses.
import { defineModule, type Platform } from '../module.js';
import { createTlsAdminRoutes, createTlsCertificateRoutes, createTlsStatusRoutes } from './routes.js';
import { TlsService } from './service.js';

/** How often the household certificate is checked against the LAN addresses and its end date. */
export const TLS_REFRESH_MS = 60_000;

export function createTlsModule(p: Platform) {
  const tls = new TlsService({ tls: p.tls });
  return defineModule({
    name: 'tls',
    routes: [
      { prefix: '/system/tls', routes: createTlsStatusRoutes(tls) },
      { prefix: '/tls', routes: createTlsCertificateRoutes(tls) },
      { prefix: '/admin/tls', routes: createTlsAdminRoutes(tls) },
    ],
    services: { tlsSettings: tls },
    tasks: [{ name: 'tls.refresh', everyMs: TLS_REFRESH_MS, run: () => p.tls.refresh() }],
  });
}
