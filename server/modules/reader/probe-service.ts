// Outbound requests Reader makes for a member, both through the SSRF guard: the probe (is a page
// reachable, may it be framed, its title and icon) and the legacy embed proxy's upstream request.
import { pipeline, Transform, type Readable } from 'node:stream';
import type { UserActor } from '../../actor.js';
import { BadRequestError, PayloadTooLargeError, ServiceUnavailableError, UpstreamError } from '../../errors.js';
import { BlockedUrlError, guardedRequest, OfflineModeError, type GuardedResponse, type SsrfGuard } from '../../platform/ssrf.js';
import type { ReaderAccess } from './access-service.js';
import { PROBE_MAX_BYTES, PROBE_TIMEOUT_MS, PROXY_MAX_BYTES, type ProbeResult } from './schema.js';

/** The legacy embed proxy's answer: the site's status, its headers minus cookies and frame or security policy, and its body, cut off past PROXY_MAX_BYTES. */
export interface ProxiedPage {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Readable;
}

const DROPPED_UPSTREAM_HEADERS = new Set(['set-cookie', 'set-cookie2', 'x-frame-options', 'content-security-policy', 'content-security-policy-report-only', 'connection', 'keep-alive', 'transfer-encoding', 'strict-transport-security', 'alt-svc', 'report-to', 'nel', 'clear-site-data', 'permissions-policy', 'cross-origin-opener-policy', 'cross-origin-embedder-policy', 'cross-origin-resource-policy', 'access-control-allow-origin', 'access-control-allow-credentials']);

/** A URL the SSRF guard refused: 503 offline_mode in offline mode, otherwise 400 blocked_url. */
export function refusal(err: BlockedUrlError): BadRequestError | ServiceUnavailableError {
  return err instanceof OfflineModeError ? new ServiceUnavailableError('offline_mode', err.message) : new BadRequestError(err.message, undefined, 'blocked_url');
}

export interface ReaderProbeDeps {
  access: ReaderAccess;
  guard: SsrfGuard;
}

export class ReaderProbeService {
  constructor(private readonly deps: ReaderProbeDeps) {}

  async probe(url: string): Promise<ProbeResult> {
    let target: URL;
    try {
      target = this.deps.guard.checkUrl(url);
    } catch (err) {
      throw err instanceof BlockedUrlError ? refusal(err) : new BadRequestError('That is not a valid web address.', undefined, 'blocked_url');
    }
    let res: GuardedResponse;
    try {
      res = await guardedRequest(this.deps.guard, target.href, {
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Hearth reader)', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
        headersTimeoutMs: PROBE_TIMEOUT_MS,
        bodyTimeoutMs: PROBE_TIMEOUT_MS,
      });
    } catch (err) {
      if (err instanceof BlockedUrlError) throw refusal(err);
      return { reachable: false, framesBlocked: false, faviconUrl: null, title: null };
    }
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v.join(', ') : (v ?? '');
    };
    const framesBlocked = framesBlockedBy(header('x-frame-options'), header('content-security-policy'));
    let html = '';
    if (/html|xml/i.test(header('content-type')) || header('content-type') === '') html = await readPrefix(res.body, PROBE_MAX_BYTES);
    else {
      // undici answers an unread body's destroy() with an 'error' (AbortError); without a listener
      // it would be an uncaught exception (a PDF or a 404 page took the server down)
      res.body.on('error', () => undefined);
      res.body.destroy();
    }
    const base = new URL(res.url);
    return {
      reachable: res.statusCode < 400,
      framesBlocked,
      title: titleOf(html),
      faviconUrl: iconOf(html, base) ?? new URL('/favicon.ico', base).href,
    };
  }

  /**
   * The legacy embed proxy: a visible item's page (SSRF-guarded, every redirect hop checked). A
   * page that declares more than PROXY_MAX_BYTES is 413; one that sends more is cut off there
   * (the body errors, so the response ends short). Closing the body aborts the upstream request.
   */
  async proxy(actor: UserActor, id: string, signal: AbortSignal): Promise<ProxiedPage> {
    const up = await this.upstream(actor, id, signal);
    const declared = Number(up.headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > PROXY_MAX_BYTES) {
      up.body.on('error', () => undefined); // destroying an unread undici body emits AbortError
      up.body.destroy();
      throw new PayloadTooLargeError('The page is too large to show here.');
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(up.headers)) {
      if (value === undefined || DROPPED_UPSTREAM_HEADERS.has(name.toLowerCase())) continue;
      headers[name] = value;
    }
    return { statusCode: up.statusCode, headers, body: capped(up.body, PROXY_MAX_BYTES) };
  }

  private async upstream(actor: UserActor, id: string, signal: AbortSignal): Promise<GuardedResponse> {
    const r = await this.deps.access.visibleItem(actor, id);
    try {
      return await guardedRequest(this.deps.guard, r.url, {
        headers: { 'user-agent': 'Mozilla/5.0 (compatible; Hearth reader)', accept: 'text/html,*/*;q=0.8' },
        signal,
        headersTimeoutMs: 15_000,
        bodyTimeoutMs: 30_000,
      });
    } catch (err) {
      if (err instanceof BlockedUrlError) throw refusal(err);
      throw new UpstreamError('upstream_unreachable', 'The site could not be reached.');
    }
  }
}

/** The body passed through until more than `max` bytes came, then an error (the chunk over the cap is not passed on). */
function capped(body: Readable, max: number): Readable {
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > max) done(new Error('The page is larger than the proxy passes on.'));
      else done(null, chunk);
    },
  });
  // pipeline destroys both on an error or an early close of either
  return pipeline(body, cap, () => undefined);
}

/** X-Frame-Options (any value) or a CSP frame-ancestors that does not allow every origin. */
export function framesBlockedBy(xfo: string, csp: string): boolean {
  if (xfo.trim() !== '') return true;
  for (const policy of csp.split(',')) {
    for (const directive of policy.split(';')) {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (name?.toLowerCase() !== 'frame-ancestors') continue;
      if (!sources.includes('*')) return true;
    }
  }
  return false;
}

async function readPrefix(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max) break;
    }
  } catch {
    // a broken body still gives what arrived
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n < 0x110000 ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function titleOf(html: string): string | null {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const t = m ? decodeEntities(m[1]!).replace(/\s+/g, ' ').trim() : '';
  return t ? t.slice(0, 500) : null;
}

export function iconOf(html: string, base: URL): string | null {
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const rel = /\brel\s*=\s*["']?([^"'>]+)/i.exec(tag)?.[1]?.toLowerCase() ?? '';
    if (!rel.split(/\s+/).includes('icon')) continue;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
    const value = href ? decodeEntities(href[1] ?? href[2] ?? href[3] ?? '').trim() : '';
    if (!value) continue;
    try {
      const u = new URL(value, base);
      if (u.protocol === 'http:' || u.protocol === 'https:') return u.href;
    } catch {
      // try the next link
    }
  }
  return null;
}
