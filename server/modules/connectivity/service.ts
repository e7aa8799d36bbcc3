// Connectivity as the household's admin sees it: the addresses phones open Hearth at, one cached
// internet check (never made in offline mode), each outside source's last outcome, and the offline
// switch (OFFLINE_MODE forces it on; an admin may switch it on or off otherwise; it survives a restart).
import { assertAdmin, type Actor } from '../../actor.js';
import { ConflictError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { houseAddresses, type NetworkInterfaces } from '../../platform/lan.js';
import type { Logger } from '../../platform/logger.js';
import type { OfflineSwitch } from '../../platform/offline-switch.js';
import type { OutboundSourceReport } from '../../platform/outside-sources/fetcher.js';
import { BlockedUrlError, guardedRequest, offlineMessage, type SsrfGuard } from '../../platform/ssrf.js';
import type { ConnectivityResponse, ConnectivityStatusResponse, InternetCheck, OfflineModeState, OutboundSource, PutConnectivityBody } from './schema.js';

/** How long one internet check answers every page that asks. */
export const CHECK_TTL_MS = 60_000;
const CHECK_TIMEOUT_MS = 5_000;

export const OFFLINE_FORCED = 'Hearth was started in offline mode, so offline mode stays on here. To go online, whoever starts Hearth restarts it with offline mode switched off.';

export interface ConnectivityDeps {
  offline: OfflineSwitch;
  guard: SsrfGuard;
  /** The one address the internet check asks (a HEAD). */
  checkUrl: string;
  clock: Clock;
  logger: Logger;
  host: string;
  interfaces: () => NetworkInterfaces;
  /** The port HTTPS answers on; null while it is off. */
  httpsPort: () => number | null;
  sources: () => OutboundSourceReport[];
  checkTtlMs?: number;
}

/** The port and scheme the admin's request came in on: the plain address's port is known only from a plain request. */
export interface RequestPort {
  port: number;
  secure: boolean;
  /** The configured plain port (PORT), for a request that came in over HTTPS. */
  plainPort: number;
}

export class ConnectivityService {
  private check: { at: number; result: InternetCheck } | null = null;
  private checking: Promise<InternetCheck> | null = null;

  constructor(private readonly deps: ConnectivityDeps) {
    // a check made before a switch says nothing about after it
    deps.offline.onChange(() => {
      this.check = null;
    });
  }

  /** Every member's pages: whether offline mode is on and the sentence that says who switched it. */
  status(): ConnectivityStatusResponse {
    return { offlineMode: this.offlineState() };
  }

  async overview(actor: Actor, via: RequestPort): Promise<ConnectivityResponse> {
    assertAdmin(actor);
    const [internet, sources] = await Promise.all([this.internet(), this.sources()]);
    const { offline } = this.deps;
    return { ...this.addresses(via), host: this.deps.host, internet, sources, offlineMode: { ...this.offlineState(), locked: offline.forced } };
  }

  /** The admin's switch: stored, then in effect at once for every outbound path. */
  async setOfflineMode(actor: Actor, body: PutConnectivityBody, via: RequestPort): Promise<ConnectivityResponse> {
    assertAdmin(actor);
    if (!body.offlineMode && this.deps.offline.forced) throw new ConflictError('offline_forced', OFFLINE_FORCED);
    await this.deps.offline.set(body.offlineMode);
    this.deps.logger.info({ offlineMode: body.offlineMode }, body.offlineMode ? 'offline mode switched on' : 'offline mode switched off');
    return this.overview(actor, via);
  }

  private offlineState(): OfflineModeState {
    const { offline } = this.deps;
    return { on: offline.isOn(), reason: offline.reason, message: offline.isOn() ? offlineMessage(offline.reason) : null };
  }

  private addresses(via: RequestPort): Pick<ConnectivityResponse, 'reach' | 'addresses'> {
    const plainPort = via.secure ? via.plainPort : via.port;
    const found = houseAddresses(this.deps.host, plainPort, this.deps.interfaces());
    const httpsPort = this.deps.httpsPort();
    const secure =
      httpsPort === null
        ? []
        : found.addresses.map((u) => {
            const url = new URL(u);
            return { url: `https://${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${httpsPort}`, secure: true };
          });
    return { reach: found.reach, addresses: [...secure, ...found.addresses.map((url) => ({ url, secure: false }))] };
  }

  private async sources(): Promise<OutboundSource[]> {
    const out: OutboundSource[] = [];
    for (const s of this.deps.sources()) {
      const h = await s.health().catch(() => null);
      if (h) out.push({ name: s.name, ...h });
    }
    return out;
  }

  /** One HEAD through the guard, kept a minute; none at all in offline mode. */
  private async internet(): Promise<InternetCheck> {
    const host = new URL(this.deps.checkUrl).host;
    if (this.deps.offline.isOn()) return { status: 'offline', checkedAt: null, host, message: null };
    const now = this.deps.clock.now().getTime();
    if (this.check && now - this.check.at < (this.deps.checkTtlMs ?? CHECK_TTL_MS)) return this.check.result;
    this.checking ??= this.checkNow(host).finally(() => (this.checking = null));
    return this.checking;
  }

  private async checkNow(host: string): Promise<InternetCheck> {
    const at = this.deps.clock.now();
    let result: InternetCheck;
    try {
      const res = await guardedRequest(this.deps.guard, this.deps.checkUrl, { method: 'HEAD', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), headersTimeoutMs: CHECK_TIMEOUT_MS, maxRedirects: 3 });
      res.body.resume();
      result = { status: 'reachable', checkedAt: at.toISOString(), host, message: null };
    } catch (err) {
      const message = err instanceof BlockedUrlError ? err.message : `${host} did not answer within ${CHECK_TIMEOUT_MS / 1000} seconds, or could not be reached.`;
      result = { status: 'unreachable', checkedAt: at.toISOString(), host, message };
    }
    // a switch made while the check ran: its answer is not kept
    if (!this.deps.offline.isOn()) this.check = { at: at.getTime(), result };
    return result;
  }
}
