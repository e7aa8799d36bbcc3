// Session cookie -> req.actor, and the access guards every route declares (see http/routes.ts).
import { parse as parseCookie } from 'cookie';
import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { assertAdmin, type UserActor } from '../actor.js';
import { UnauthorizedError } from '../errors.js';

export const SESSION_COOKIE = 'session';
/** Marks a browser where a member has signed in before (see AuthService.verifyPin); only the sign-in routes read it. */
export const DEVICE_COOKIE = 'device';
const DEVICE_COOKIE_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the session middleware when the request carries a live session. */
    actor?: UserActor;
  }
}

export type Access = 'none' | 'user' | 'admin';

export interface SessionResolver {
  /** Looks the token up; returns the actor and, when the sliding expiry moved, the new max age. */
  resolveSession(token: string, userAgent?: string): Promise<{ actor: UserActor; refreshedMaxAgeMs?: number } | null>;
}

export function sessionCookieOptions(req: Request, maxAgeMs: number): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure, maxAge: maxAgeMs };
}

export function setSessionCookie(req: Request, res: Response, token: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, token, sessionCookieOptions(req, maxAgeMs));
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure });
}

export function readDeviceToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const token = parseCookie(header)[DEVICE_COOKIE];
  return token && token.length <= 100 ? token : undefined;
}

export function setDeviceCookie(req: Request, res: Response, token: string): void {
  res.cookie(DEVICE_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/api/auth', secure: req.secure, maxAge: DEVICE_COOKIE_MAX_AGE_MS });
}

export function readSessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const token = parseCookie(header)[SESSION_COOKIE];
  return token && token.length <= 200 ? token : undefined;
}

/** How long a resolved session may answer from memory while nothing wrote the session tables. */
export const SESSION_CACHE_MS = 1000;
const SESSION_CACHE_MAX = 1000;

export interface SessionCacheOptions {
  /** Moves whenever the sessions or users tables may have changed (db/connection.ts tableWrites). */
  changes: () => number;
  /** The clock the resolver decides expiry and refresh by, in ms. */
  now: () => number;
}

/**
 * With `cache`, a session resolved in the last SESSION_CACHE_MS is answered from memory
 * while the counter has not moved: a busy device's requests skip the database lookup, and a
 * sign-out, a deleted or demoted member or a refreshed expiry is seen by the very next request.
 * (Only the expiry itself can pass unseen, for at most SESSION_CACHE_MS.)
 */
export function sessionMiddleware(resolver: SessionResolver, cache?: SessionCacheOptions): RequestHandler {
  const known = new Map<string, { actor: UserActor; version: number; until: number }>();
  return async (req, res, next) => {
    const token = readSessionToken(req);
    if (token) {
      const hit = cache ? known.get(token) : undefined;
      if (hit && hit.version === cache!.changes() && hit.until > cache!.now()) {
        req.actor = hit.actor;
        return next();
      }
      const version = cache?.changes();
      const now = cache?.now() ?? 0;
      const found = await resolver.resolveSession(token, req.get('user-agent'));
      if (found) {
        req.actor = found.actor;
        if (found.refreshedMaxAgeMs) setSessionCookie(req, res, token, found.refreshedMaxAgeMs);
        if (version !== undefined) {
          if (known.size >= SESSION_CACHE_MAX) known.clear();
          known.set(token, { actor: Object.freeze({ ...found.actor }), version, until: now + SESSION_CACHE_MS });
        }
      } else known.delete(token);
    }
    next();
  };
}

export function requireAccess(access: Access): RequestHandler {
  return (req, _res, next) => {
    if (access === 'none') return next();
    if (!req.actor) throw new UnauthorizedError();
    if (access === 'admin') assertAdmin(req.actor);
    next();
  };
}

/** Narrows req.actor for handlers behind 'user' or 'admin' access. */
export function actorOf(req: Request): UserActor {
  if (!req.actor) throw new UnauthorizedError();
  return req.actor;
}
