// The one SSRF guard. Every server-side fetch of a URL that did not come from Hearth's own config
// (downloads, capture, probes, lookups) goes through guardedFetch(). It:
//  - accepts only http(s) URLs without credentials;
//  - resolves names itself and refuses loopback, private, link-local, CGNAT, multicast, unspecified,
//    reserved, ULA and IPv4-mapped/embedded addresses — only global unicast passes;
//  - pins the checked address: the check runs inside the connection's own DNS lookup, so there is
//    no window between "checked" and "connected" for DNS rebinding;
//  - follows redirects itself and checks every hop.
// Tests reach local fixture servers only through config.fetchAllowOrigins (exact origins).
import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request, type Dispatcher } from 'undici';

export class BlockedUrlError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'BlockedUrlError';
  }
}

export const MAX_REDIRECTS = 10;

/** True only for globally routable unicast addresses. */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
  }
  return parsed.range() === 'unicast';
}

export interface SsrfGuard {
  /** Parses and checks a URL (scheme, credentials, literal addresses); throws BlockedUrlError. */
  checkUrl(raw: string | URL): URL;
  /** An undici dispatcher whose every connection is checked at DNS-lookup time. */
  dispatcher: Dispatcher;
  /**
   * The checked DNS lookup behind that dispatcher, for a socket opened directly (net.connect's
   * `lookup` option): it fails with code ESSRFBLOCKED when a name resolves only to non-public
   * addresses. Names only; a literal address is checked by checkUrl().
   */
  lookup: typeof dns.lookup;
  /**
   * What another thread needs to build the same guard with createSsrfGuard() (a download worker
   * does); null when the guard was made with a custom lookup, which cannot cross a thread.
   */
  workerOptions: SsrfGuardOptions | null;
  close(): Promise<void>;
}

/** The part of a guard's settings that can be sent to a worker thread. */
export interface SsrfGuardOptions {
  allowOrigins: string[];
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createSsrfGuard(opts: { allowOrigins?: readonly string[]; lookup?: typeof dns.lookup } = {}): SsrfGuard {
  const allow = new Set((opts.allowOrigins ?? []).map((o) => new URL(o).origin));
  const baseLookup = opts.lookup ?? dns.lookup;

  const checkUrl = (raw: string | URL): URL => {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new BlockedUrlError('That is not a valid web address.', String(raw));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedUrlError('Only http and https addresses can be fetched.', url.href);
    if (url.username || url.password) throw new BlockedUrlError('Addresses with a user name or password cannot be fetched.', url.href);
    if (allow.has(url.origin)) return url;
    // WHATWG URL parsing has already normalized IPv4 written in hex, octal or as one number.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) && !isPublicAddress(host)) throw new BlockedUrlError('That address is on a private or local network.', url.href);
    if (host === 'localhost' || host.endsWith('.localhost')) throw new BlockedUrlError('That address is on this computer.', url.href);
    return url;
  };

  // Called by the socket for every connection to a name: the addresses it connects to are the
  // ones checked here.
  const guardedLookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    baseLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = (addresses as unknown as LookupAddress[]).filter((a) => isPublicAddress(a.address));
      if (list.length === 0) {
        const e = new BlockedUrlError(`${hostname} points to a private or local network address.`, hostname) as unknown as NodeJS.ErrnoException;
        e.code = 'ESSRFBLOCKED';
        return callback(e, '', 0);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };

  const lookup = guardedLookup as unknown as typeof dns.lookup;
  const dispatcher = new Agent({ connect: { lookup }, maxRedirections: 0 } as Agent.Options);
  return { checkUrl, dispatcher, lookup, workerOptions: opts.lookup ? null : { allowOrigins: [...allow] }, close: () => dispatcher.close() };
}

export interface GuardedResponse {
  url: string;
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  redirects: string[];
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
  const redirects: string[] = [];
  for (let hop = 0; ; hop++) {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: opts.method ?? 'GET',
        headers: opts.headers,
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
      url = guard.checkUrl(new URL(location, url));
      continue;
    }
    return { url: url.href, statusCode: res.statusCode, headers: res.headers, body: res.body, redirects };
  }
}
