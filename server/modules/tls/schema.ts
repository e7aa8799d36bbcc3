import { z } from 'zod';

/** A pasted PEM chain or key: a few certificates of a few KB each. */
export const MAX_PEM_CHARS = 64 * 1024;

export const TlsMode = z.enum(['household', 'own', 'off']);
export type TlsMode = z.infer<typeof TlsMode>;

/** GET /api/system/tls: what a device needs before signing in (no auth). */
export const TlsStatusResponse = z.object({
  mode: TlsMode,
  /** The port HTTPS answers on; null while it is off (or could not open). */
  httpsPort: z.number().int().nullable(),
  /** Exactly the names (DNS names, then IP addresses) on the certificate in use; empty when off. */
  names: z.array(z.string()),
  /** The SHA-256 fingerprint of the root a device trusts (colon-separated hex), to compare when installing it. */
  fingerprintSha256: z.string().nullable(),
  /** When the server certificate in use ends (ISO 8601); null when off. */
  validUntil: z.string().nullable(),
});
export type TlsStatusResponse = z.infer<typeof TlsStatusResponse>;

/** The admin's view: the same, with why the chosen mode is not what is served (an own certificate that expired). */
export const TlsAdminResponse = TlsStatusResponse.extend({
  notice: z.string().nullable(),
  /** The household root's fingerprint, also when the admin's own certificate is in use (devices may still trust it). */
  householdFingerprintSha256: z.string().nullable(),
});
export type TlsAdminResponse = z.infer<typeof TlsAdminResponse>;

const Pem = z.string().trim().min(1).max(MAX_PEM_CHARS);

export const UpdateTlsBody = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('household') }),
  z.object({ mode: z.literal('off') }),
  z.object({
    mode: z.literal('own'),
    /** The certificate, then each certificate that signed it, up to and including the root (PEM). */
    certPem: Pem,
    /** The certificate's private key, unencrypted PEM. */
    keyPem: Pem,
  }),
]);
export type UpdateTlsBody = z.infer<typeof UpdateTlsBody>;
