// The address half of the one SSRF guard (ssrf.ts): the URL check and the checked DNS lookup,
// without undici, so a thread that only opens sockets itself (the download worker, through
// guardedGet) does not load it. ssrf.ts builds the full guard on these and re-exports them.
import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export class BlockedUrlError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'BlockedUrlError';
  }

  /** A refusal by design, logged as its message without a stack (platform/logger.ts). */
  readonly expected = true;
}

/**
 * Offline mode refuses every outbound fetch here, before any DNS lookup. It is on when Hearth was
 * started with OFFLINE_MODE=1 (`env`: only a restart changes it) or when an admin switched it on in
 * Admin › Connectivity (`admin`: switched off there). The guard reads it at each call
 * (platform/offline-switch.ts), so a switch takes effect at once for every outbound path.
 */
export type OfflineReason = 'env' | 'admin';

/** Where a guard reads offline mode at each call: the household's switch, or a fixed answer. */
export interface OfflineSource {
  isOn(): boolean;
  /** Why it is on; null while it is off. */
  readonly reason: OfflineReason | null;
}

export const OFFLINE_MODE_MESSAGE = 'Hearth was started in offline mode, so it does not reach the internet. To go online, whoever starts Hearth restarts it with offline mode switched off.';
export const OFFLINE_ADMIN_MESSAGE = 'An admin switched offline mode on in Admin › Connectivity, so Hearth does not reach the internet. An admin can switch it off there.';

/** The sentence a refusal says for each reason. */
export const offlineMessage = (reason: OfflineReason | null): string => (reason === 'admin' ? OFFLINE_ADMIN_MESSAGE : OFFLINE_MODE_MESSAGE);

/** Who switched offline mode on and how it goes off again, in one sentence: a module's own refusals end with it. */
export const offlineWho = (reason: OfflineReason | null): string =>
  reason === 'admin' ? 'An admin switched offline mode on in Admin › Connectivity and can switch it off there.' : 'Hearth was started in offline mode; restarting it with offline mode off brings it back online.';

/** A fixed offline answer (a boolean option, a worker thread's copy). */
export const fixedOffline = (reason: OfflineReason | null): OfflineSource => ({ isOn: () => reason !== null, reason });

export class OfflineModeError extends BlockedUrlError {
  constructor(
    url: string,
    readonly reason: OfflineReason = 'env',
  ) {
    super(offlineMessage(reason), url);
    this.name = 'OfflineModeError';
  }
}

export const MAX_REDIRECTS = 10;

/**
 * The headers for a redirect's next hop: credentials (Authorization, Cookie) go only to the origin
 * they were meant for, as browsers do, so a hub's API key never follows a redirect to its file store.
 */
export function headersForHop<H extends Record<string, string> | undefined>(headers: H, from: URL, to: URL): H {
  if (!headers || from.origin === to.origin) return headers;
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !['authorization', 'cookie', 'proxy-authorization'].includes(k.toLowerCase()))) as H;
}

/**
 * True only for globally routable unicast addresses. IPv6 forms that carry an IPv4 address are
 * judged by what a socket would reach: IPv4-mapped (::ffff:a.b.c.d) is the IPv4 address itself;
 * IPv4-compatible (::a.b.c.d, deprecated, e.g. ::7f00:1) is refused whole, since ipaddr.js calls
 * it unicast although stacks may route it to the embedded address; NAT64 (64:ff9b::/96 and
 * 64:ff9b:1::/48), SIIT (::ffff:0:a.b.c.d), 6to4 (2002::/16) and Teredo (2001::/32) are
 * translation ranges that can lead to any IPv4 address, local ones included, so none is public.
 */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // ipaddr.js reads the dotted tail of "::127.0.0.1" as IPv4-mapped; the WHATWG URL parser writes
  // every IPv6 spelling in one canonical hex form first (::7f00:1), as sockets understand it
  if (net.isIPv6(text)) text = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    if (v6.parts.slice(0, 6).every((p) => p === 0)) return false;
  }
  return parsed.range() === 'unicast';
}

export interface AddressGuard {
  /** Parses and checks a URL (scheme, credentials, literal addresses); throws BlockedUrlError. */
  checkUrl(raw: string | URL): URL;
  /**
   * The checked DNS lookup, for a socket's `lookup` option: it fails with code ESSRFBLOCKED when a
   * name resolves only to non-public addresses, and otherwise gives only the public ones, so the
   * address checked is the address connected to. Names only; checkUrl() checks a literal address.
   */
  lookup: typeof dns.lookup;
  /** The exact origins let through although local (tests' fixture servers), normalized. */
  allowOrigins: readonly string[];
  /** The admin-configured home-network origins (see AddressGuardOptions.lanOrigins), normalized. */
  lanOrigins: readonly string[];
  /** Offline mode, read now: every URL and every lookup is refused with OfflineModeError while it is on. */
  readonly offline: boolean;
  /** Where the guard reads offline mode; a guard built on this one passes it on (`offline: base.offlineSource`). */
  offlineSource: OfflineSource;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export interface AddressGuardOptions {
  allowOrigins?: readonly string[];
  /**
   * Origins on the home network that the admin configured (the household's media server): each
   * exact origin is let through, and its host name may resolve to a private address, which no
   * other name may. Any other port or scheme on such a name is refused, since the connection's
   * DNS lookup cannot see the port. Not carried to worker threads (workerOptions).
   */
  lanOrigins?: readonly string[];
  lookup?: typeof dns.lookup;
  /** A fixed answer, or the household's switch read at each call. */
  offline?: boolean | OfflineSource;
}

/** The offline option as a source read at each call. */
export const offlineSourceOf = (offline: boolean | OfflineSource | undefined): OfflineSource =>
  typeof offline === 'object' ? offline : fixedOffline(offline === true ? 'env' : null);

export function createAddressGuard(opts: AddressGuardOptions = {}): AddressGuard {
  const allow = new Set((opts.allowOrigins ?? []).map((o) => new URL(o).origin));
  const lan = new Set((opts.lanOrigins ?? []).map((o) => new URL(o).origin));
  // the names (not literal addresses) of the LAN origins, as a socket's lookup sees them
  const lanNames = new Set([...lan].map((o) => new URL(o).hostname).filter((h) => !net.isIP(h.replace(/^\[|\]$/g, ''))));
  const baseLookup = opts.lookup ?? dns.lookup;
  const offline = offlineSourceOf(opts.offline);
  const refusal = (target: string) => new OfflineModeError(target, offline.reason ?? 'env');

  const checkUrl = (raw: string | URL): URL => {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new BlockedUrlError('That is not a valid web address.', String(raw));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError('Only http and https addresses can be fetched.', url.href);
    if (url.username || url.password) throw new BlockedUrlError('Addresses with a user name or password cannot be fetched.', url.href);
    // offline means nothing goes out, the test fixtures that stand in for the internet included
    if (offline.isOn()) throw refusal(url.href);
    if (allow.has(url.origin) || lan.has(url.origin)) return url;
    if (lanNames.has(url.hostname)) throw new BlockedUrlError('Only the address set for that computer on the home network can be fetched.', url.href);
    // WHATWG URL parsing has already normalized IPv4 written in hex, octal or as one number.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !isPublicAddress(host)) throw new BlockedUrlError('That address is on a private or local network.', url.href);
    if (host === 'localhost' || host.endsWith('.localhost')) throw new BlockedUrlError('That address is on this computer.', url.href);
    return url;
  };

  // Called by the socket for every connection to a name: the addresses it connects to are the
  // ones checked here.
  const guardedLookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    if (offline.isOn()) {
      const e = refusal(hostname) as unknown as NodeJS.ErrnoException;
      e.code = 'ESSRFBLOCKED';
      return process.nextTick(() => callback(e, '', 0));
    }
    const onLan = lanNames.has(hostname);
    baseLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = (addresses as unknown as LookupAddress[]).filter((a) => onLan || isPublicAddress(a.address));
      const first = list[0];
      if (!first) {
        const e = new BlockedUrlError(`${hostname} points to a private or local network address.`, hostname) as unknown as NodeJS.ErrnoException;
        e.code = 'ESSRFBLOCKED';
        return callback(e, '', 0);
      }
      if (options.all) return callback(null, list);
      callback(null, first.address, first.family);
    });
  };

  return {
    checkUrl,
    lookup: guardedLookup as unknown as typeof dns.lookup,
    allowOrigins: [...allow],
    lanOrigins: [...lan],
    get offline() {
      return offline.isOn();
    },
    offlineSource: offline,
  };
}
