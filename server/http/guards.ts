// Cross-site request guards (Origin, and the home host name against DNS rebinding) and request
// logging for /api.
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { ForbiddenError } from '../errors.js';
import { lanUrls } from '../platform/lan.js';
import type { Logger } from '../platform/logger.js';
import { sendWrongHostPage } from './static.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request from a page on another origin is refused (403 bad_origin): the
 * session cookie is SameSite=Lax, and this also closes login-CSRF and setup-CSRF, where no cookie
 * is involved yet. Browsers send Origin on every cross-origin POST/PUT/PATCH/DELETE; when it is
 * absent, Sec-Fetch-Site tells the same story. Non-browser clients send neither and pass.
 */
export function originGuard(allowedOrigins: readonly string[] = []): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin');
    const own = `${req.protocol}://${req.get('host') ?? ''}`;
    if (origin !== undefined) {
      if (origin === own || allowedOrigins.includes(origin)) return next();
      throw new ForbiddenError('This request came from another website and was refused.', 'bad_origin');
    }
    if (req.get('sec-fetch-site') === 'cross-site') {
      throw new ForbiddenError('This request came from another website and was refused.', 'bad_origin');
    }
    next();
  };
}

// Names that only resolve inside a home network: a single label (the computer's name), mDNS and
// the suffixes routers and RFC 8375 use for the home. A public name (attacker.example) can be made
// to resolve to a LAN address (DNS rebinding), so a page on it would pass the Origin check above
// against its own Host; it can never be one of these.
const HOME_SUFFIXES = ['.local', '.lan', '.home', '.home.arpa', '.internal', '.localdomain', '.localhost'];

/** Whether a request's host name (no port) is an IP address, localhost or a home-network-only name. */
export function isHomeHostName(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (!host) return false;
  if (isIP(host)) return true;
  if (host === 'localhost' || !host.includes('.')) return true;
  return HOME_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/**
 * Everything Hearth serves answers only to its own names (DESIGN §4, issue 31): a page on another
 * name made to resolve to this computer (DNS rebinding) is same-origin with itself, so the Origin
 * check and SameSite cookies let it list profiles, guess PINs and act with the session it gets.
 * `allowed` is exactly the names on the certificate in use, plus any IP address (an address
 * cannot be rebound); another `.local` name is refused too. /api (the archive view included)
 * answers 403 bad_host; the web app and the docs answer a page that says which address to open
 * instead. A request without a Host header is no browser's and passes.
 */
export function homeHostGuard(opts: { host: string; allowed?: (hostname: string) => boolean }): RequestHandler {
  const allowed = opts.allowed ?? isHomeHostName;
  return (req, res, next) => {
    const raw = req.get('host');
    if (raw === undefined || allowed(req.hostname ?? '')) return next();
    const addresses = lanUrls(opts.host, req.socket.localPort ?? 0).map((u) => (req.secure ? u.replace(/^http:/, 'https:') : u));
    if (req.path === '/api' || req.path.startsWith('/api/')) {
      throw new ForbiddenError(
        `This is not Hearth’s own address, so Hearth will not answer here. Open it at ${addresses.join(' or ')}, or from the Hearth window on this computer.`,
        'bad_host',
      );
    }
    sendWrongHostPage(res, addresses);
  };
}

/**
 * Logs method, path, status and duration with a request id (also sent as x-request-id); a route
 * declared `unlogged` (routes.ts) is left out unless it failed with a 5xx.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const id = randomUUID();
    const started = process.hrtime.bigint();
    res.setHeader('x-request-id', id);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { requestId: id, method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      // a 5xx refusal by design (res.locals.refusal, set by the error handler) is not an error
      if (res.statusCode >= 500 && !res.locals.refusal) logger.error(line, 'request');
      else if (res.locals.unlogged !== true) logger.debug(line, 'request');
    });
    next();
  };
}
