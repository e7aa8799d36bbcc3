// Fetching through the SSRF guard for capture: one hop at a time for the browser's requests (the
// browser follows redirects itself and each hop comes back through the route handler), or
// following redirects via guardedRequest for assets, og:image and the static fallback. Bodies are
// read with a size cap.
import type { Dispatcher } from 'undici';
import { undici } from '../../../platform/lazy.js';
import { BlockedUrlError, guardedRequest, type SsrfGuard } from '../../../platform/ssrf.js';

export const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Hearth/1';

export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The response is larger than ${Math.round(limit / 1_000_000)} MB.`);
    this.name = 'TooLargeError';
  }
}

export interface FetchedResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  redirects: string[];
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? (k.toLowerCase() === 'set-cookie' ? v.join('\n') : v.join(', ')) : v;
  }
  return out;
}

export async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw new TooLargeError(maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Request headers Node must not forward as given (it sets its own, or they describe the browser's connection). */
const DROP_REQUEST = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding', 'keep-alive', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/** One request, no redirect following: the guard checks the URL and the address the socket connects to. */
export async function guardedHop(
  guard: SsrfGuard,
  raw: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | null; signal?: AbortSignal; maxBytes: number; timeoutMs?: number },
): Promise<FetchedResponse> {
  const url = guard.checkUrl(raw);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.headers ?? {})) if (!DROP_REQUEST.has(k.toLowerCase()) && !k.startsWith(':')) headers[k] = v;
  headers['accept-encoding'] = 'identity';
  let res: Dispatcher.ResponseData;
  try {
    res = await undici().request(url, {
      method: (opts.method ?? 'GET') as Dispatcher.HttpMethod,
      headers,
      body: opts.body && opts.body.length ? opts.body : undefined,
      signal: opts.signal,
      dispatcher: guard.dispatcher,
      headersTimeout: opts.timeoutMs ?? 30_000,
      bodyTimeout: opts.timeoutMs ?? 30_000,
    });
  } catch (err) {
    throw unwrapBlocked(err, url.href);
  }
  const body = opts.method === 'HEAD' ? (res.body.resume(), Buffer.alloc(0)) : await readCapped(res.body, opts.maxBytes);
  return { url: url.href, status: res.statusCode, headers: flatHeaders(res.headers), body, redirects: [] };
}

export function unwrapBlocked(err: unknown, url: string): unknown {
  const cause = (err as { cause?: unknown }).cause;
  if (err instanceof BlockedUrlError) return err;
  if (cause instanceof BlockedUrlError) return cause;
  if ((err as NodeJS.ErrnoException).code === 'ESSRFBLOCKED') return new BlockedUrlError((err as Error).message, url);
  return err;
}

/** GET following redirects (each hop checked by guardedRequest), body capped. */
export async function guardedGet(
  guard: SsrfGuard,
  raw: string,
  opts: { signal?: AbortSignal; maxBytes: number; accept?: string; timeoutMs?: number },
): Promise<FetchedResponse> {
  const res = await guardedRequest(guard, raw, {
    headers: { 'user-agent': USER_AGENT, accept: opts.accept ?? '*/*', 'accept-encoding': 'identity' },
    signal: opts.signal,
    headersTimeoutMs: opts.timeoutMs ?? 30_000,
    bodyTimeoutMs: opts.timeoutMs ?? 30_000,
  });
  const body = await readCapped(res.body, opts.maxBytes);
  return { url: res.url, status: res.statusCode, headers: flatHeaders(res.headers), body, redirects: res.redirects };
}

export function mimeOf(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

export function isHtmlType(mime: string): boolean {
  return mime === '' || mime === 'text/html' || mime === 'application/xhtml+xml';
}

/** A failure that will repeat for every URL on the same host (no such name, refused, blocked address). */
export function isHostFailure(err: unknown): boolean {
  if (err instanceof BlockedUrlError) return true;
  const code = (err as NodeJS.ErrnoException).code ?? (err as { cause?: NodeJS.ErrnoException }).cause?.code ?? '';
  return ['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ESSRFBLOCKED', 'UND_ERR_CONNECT_TIMEOUT'].includes(code);
}
