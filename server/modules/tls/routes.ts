import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { MAX_PEM_CHARS, TlsAdminResponse, TlsStatusResponse, UpdateTlsBody } from './schema.js';
import type { TlsService } from './service.js';

/** GET /api/system/tls: a phone asks before it signs in (the Trust page, the switch to the secure address). */
export function createTlsStatusRoutes(tls: TlsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'none', response: TlsStatusResponse }, () => tls.status());
  });
}

/** /api/tls: the household root to install, for any device on the home network. */
export function createTlsCertificateRoutes(tls: TlsService) {
  return defineRoutes((r) => {
    r.get('/ca.crt', { access: 'none', response: bytes('application/x-x509-ca-cert (the household root, DER)') }, async (_req, res) => {
      const der = await tls.caCertificate();
      res.setHeader('Content-Type', 'application/x-x509-ca-cert');
      res.setHeader('Content-Disposition', 'attachment; filename="hearth-household-ca.crt"');
      res.send(der);
    });
    r.get('/ca.mobileconfig', { access: 'none', response: bytes('application/x-apple-aspen-config (an iOS/iPadOS profile holding the household root)') }, async (_req, res) => {
      const profile = await tls.mobileconfig();
      res.setHeader('Content-Type', 'application/x-apple-aspen-config');
      res.setHeader('Content-Disposition', 'attachment; filename="hearth.mobileconfig"');
      res.send(Buffer.from(profile, 'utf8'));
    });
  });
}

/** /api/admin/tls: the household certificate, the admin's own, or HTTP only; renew. */
export function createTlsAdminRoutes(tls: TlsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'admin', response: TlsAdminResponse }, (req) => tls.adminStatus(actorOf(req)));
    // a PEM chain and key run to a few KB each; room for a long chain, nothing more
    r.put('/', { access: 'admin', response: TlsAdminResponse, jsonLimit: 3 * MAX_PEM_CHARS }, (req) => tls.configure(actorOf(req), parse(UpdateTlsBody, req.body)));
    r.post('/renew', { access: 'admin', response: TlsAdminResponse }, (req) => tls.renew(actorOf(req)));
  });
}
