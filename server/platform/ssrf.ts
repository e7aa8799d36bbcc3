// The one SSRF guard. Every server-side fetch of a URL that did not come from Hearth's own config
// (downloads, capture, probes, lookups) goes through guardedFetch(). It:
//  - accepts only http(s) URLs without credentials;
//  - resolves names itself and refuses loopback, private, link-local, CGNAT, multicast, unspecified,
//    reserved, ULA and IPv4-mapped/embedded addresses — only global unicast passes;
//  - pins the checked address: the check runs inside the connection's own DNS lookup, so there is
//    no window between "checked" and "connected" for DNS rebinding;
//  - follows redirects itself and checks every hop;
//  - in offline mode (OFFLINE_MODE=1, or an admin's switch: platform/offline-switch.ts, read at
//    each call) refuses every URL and lookup with OfflineModeError.
// Tests reach local fixture servers only through config.fetchAllowOrigins (exact origins). The
// one home-network exception is lanOrigins: an address the admin configured (the media server, see
// adapters/media-server/plex.ts; a speech server; Home Assistant and Frigate, see
// adapters/smart-home/), its exact origin only, its name allowed to resolve privately.
// The URL check and the checked lookup live in ssrf-address.ts (no undici there); this module adds
// the undici dispatcher and guardedRequest.
import type { Agent, Dispatcher } from 'undici';
import { undici } from './lazy.js';
import { BlockedUrlError, createAddressGuard, headersForHop, MAX_REDIRECTS, type AddressGuard, type AddressGuardOptions, type OfflineReason } from './ssrf-address.js';

export {
  BlockedUrlError,
  isPublicAddress,
  MAX_REDIRECTS,
  OFFLINE_ADMIN_MESSAGE,
  OFFLINE_MODE_MESSAGE,
  offlineMessage,
  offlineWho,
  OfflineModeError,
  type AddressGuard,
  type AddressGuardOptions,
  type OfflineReason,
  type OfflineSource,
} from './ssrf-address.js';

export interface SsrfGuard extends AddressGuard {
  /** An undici dispatcher whose every connection is checked at DNS-lookup time (with `lookup`). */
  dispatcher: Dispatcher;
  /**
   * What another thread needs to build the same checks with createAddressGuard() (a download
   * worker does), offline mode as it is when read; null when the guard was made with a custom
   * lookup, which cannot cross a thread.
   */
  readonly workerOptions: SsrfGuardOptions | null;
  close(): Promise<void>;
}

/** The part of a guard's settings that can be sent to a worker thread. */
export interface SsrfGuardOptions {
  allowOrigins: string[];
  offline: boolean;
  /** Why offline mode is on (the refusal's sentence); absent while it is off. */
  offlineReason?: OfflineReason;
}

export function createSsrfGuard(opts: AddressGuardOptions = {}): SsrfGuard {
  const address = createAddressGuard(opts);
  // made at the first guarded request, so undici is not loaded at start
  let dispatcher: Agent | null = null;
  const source = address.offlineSource;
  return {
    checkUrl: address.checkUrl,
    lookup: address.lookup,
    allowOrigins: address.allowOrigins,
    lanOrigins: address.lanOrigins,
    offlineSource: source,
    get offline() {
      return source.isOn();
    },
    get dispatcher(): Dispatcher {
      return (dispatcher ??= new (undici().Agent)({ connect: { lookup: address.lookup }, maxRedirections: 0 } as Agent.Options));
    },
    get workerOptions(): SsrfGuardOptions | null {
      if (opts.lookup) return null;
      const reason = source.isOn() ? (source.reason ?? 'env') : null;
      return { allowOrigins: [...address.allowOrigins], offline: reason !== null, ...(reason ? { offlineReason: reason } : {}) };
    },
    close: async () => {
      await dispatcher?.close();
      dispatcher = null;
    },
  };
}

export interface GuardedResponse {
  url: string;
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  redirects: string[];
  /** The status of each redirect followed, in order (a 301/308 tells a feed reader to keep the new address). */
  redirectStatuses: number[];
}

/**
 * GET (or HEAD) through the guard, following up to MAX_REDIRECTS redirects and checking each hop.
 */
export async function guardedRequest(
  guard: SsrfGuard,
  raw: string,
  opts: { method?: 'GET' | 'HEAD'; headers?: Record<string, string>; signal?: AbortSignal; maxRedirects?: number; headersTimeoutMs?: number; bodyTimeoutMs?: number } = {},
): Promise<GuardedResponse> {
  let url = guard.checkUrl(raw);
  let headers = opts.headers;
  const redirects: string[] = [];
  const redirectStatuses: number[] = [];
  for (let hop = 0; ; hop++) {
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(url, {
        method: opts.method ?? 'GET',
        headers,
        signal: opts.signal,
        dispatcher: guard.dispatcher,
        headersTimeout: opts.headersTimeoutMs ?? 30_000,
        bodyTimeout: opts.bodyTimeoutMs ?? 60_000,
      });
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      if (err instanceof BlockedUrlError) throw err;
      if (cause instanceof BlockedUrlError) throw cause;
      if ((err as NodeJS.ErrnoException).code === 'ESSRFBLOCKED') throw new BlockedUrlError((err as Error).message, url.href);
      throw err;
    }
    const location = res.headers.location;
    if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
      res.body.resume();
      if (hop >= (opts.maxRedirects ?? MAX_REDIRECTS)) throw new BlockedUrlError('Too many redirects.', url.href);
      redirects.push(url.href);
      redirectStatuses.push(res.statusCode);
      const next = guard.checkUrl(new URL(location, url));
      headers = headersForHop(headers, url, next);
      url = next;
      continue;
    }
    return { url: url.href, statusCode: res.statusCode, headers: res.headers, body: res.body, redirects, redirectStatuses };
  }
}
