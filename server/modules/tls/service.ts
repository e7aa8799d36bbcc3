// Secure connections as the household sees them: the status every device may read before signing
// in, the household root to install (DER, and as an iOS profile), and the admin's choice between
// the household certificate, their own, or HTTP only. The TLS state itself is the platform's
// (platform/tls/manager.ts); this service shapes it and checks who asks.
import { assertAdmin, type Actor } from '../../actor.js';
import { ConflictError } from '../../errors.js';
import type { TlsManager } from '../../platform/tls/manager.js';
import { buildMobileconfig } from './mobileconfig.js';
import type { TlsAdminResponse, TlsStatusResponse, UpdateTlsBody } from './schema.js';

export interface TlsServiceDeps {
  tls: TlsManager;
}

export class TlsService {
  constructor(private readonly deps: TlsServiceDeps) {}

  status(): TlsStatusResponse {
    const { tls } = this.deps;
    const state = tls.state();
    const on = state.mode !== 'off' && state.validUntil !== null;
    return {
      mode: state.mode,
      httpsPort: on ? tls.listeningPort : null,
      names: on ? [...state.names.dns, ...state.names.ips] : [],
      fingerprintSha256: state.fingerprintSha256,
      validUntil: on ? state.validUntil!.toISOString() : null,
    };
  }

  async adminStatus(actor: Actor): Promise<TlsAdminResponse> {
    assertAdmin(actor);
    const root = await this.deps.tls.householdRoot();
    return { ...this.status(), notice: this.deps.tls.state().notice, householdFingerprintSha256: root.fingerprintSha256 };
  }

  /** The household root, DER-encoded (what Android and Windows install). */
  async caCertificate(): Promise<Buffer> {
    return (await this.deps.tls.householdRoot()).der;
  }

  /** The household root as an iOS/iPadOS configuration profile. */
  async mobileconfig(): Promise<string> {
    return buildMobileconfig(await this.deps.tls.householdRoot());
  }

  async configure(actor: Actor, body: UpdateTlsBody): Promise<TlsAdminResponse> {
    assertAdmin(actor);
    if (body.mode === 'own') await this.deps.tls.useOwn(body.certPem, body.keyPem);
    else if (body.mode === 'household') await this.deps.tls.useHousehold();
    else await this.deps.tls.turnOff();
    return this.adminStatus(actor);
  }

  /** A new household server certificate now. */
  async renew(actor: Actor): Promise<TlsAdminResponse> {
    assertAdmin(actor);
    const mode = this.deps.tls.mode;
    if (mode === 'off') throw new ConflictError('tls_off', 'HTTPS is off, so there is no certificate to renew. Turn on the household certificate first.');
    if (mode === 'own') throw new ConflictError('own_certificate', 'Hearth cannot renew your own certificate: get the renewed one where you got it, and paste it here.');
    await this.deps.tls.renew();
    return this.adminStatus(actor);
  }
}
