// Requests per client per minute on the anonymous routes that cost the server work (sign-in and
// first-run setup), answered 429 rate_limited with Retry-After in the usual error shape.
// A client is its socket's address: trust proxy is off, so X-Forwarded-For is ignored and cannot
// be used to pose as many clients.
import type { Request, RequestHandler } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';
import { TooManyRequestsError } from '../errors.js';

/** The address a request came from, IPv4-mapped IPv6 written as IPv4; every IPv6 address is its own client. */
export function clientOf(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress;
  return ip ? ipKeyGenerator(ip, false) : 'unknown';
}

export interface RequestLimit {
  handler: RequestHandler;
  /** Stops the store's sweep timer. */
  close(): void;
}

export function createRequestLimit(opts: { perMinute: number; message: string }): RequestLimit {
  const store = new MemoryStore();
  const handler = rateLimit({
    windowMs: 60_000,
    limit: opts.perMinute,
    store,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    keyGenerator: (req) => clientOf(req),
    handler: (req, _res, next) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60;
      next(new TooManyRequestsError('rate_limited', `${opts.message} Wait ${seconds} second${seconds === 1 ? '' : 's'}, then try again.`, seconds));
    },
  });
  return { handler, close: () => store.shutdown() };
}
