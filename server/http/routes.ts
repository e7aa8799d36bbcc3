// Feature routers are declared through defineRoutes so that every route states its access level
// ('none' | 'user' | 'admin') — there is no default to forget — and the whole API's route table is
// known (tests walk it to prove anonymous 401 and member 403 everywhere).
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { requireAccess, type Access } from './auth.js';
import type { RequestLimit } from './rate-limit.js';
import { checkJsonBody } from './validate.js';

export const DEFAULT_JSON_LIMIT = '1mb';

export interface RouteOptions {
  access: Access;
  /** JSON body limit for this route (default 1 MB); false when the route reads the body itself. */
  jsonLimit?: string | number | false;
  /** Requests per client (http/rate-limit.ts), counted before the body is read. */
  limit?: RequestLimit;
}

export type Handler = (req: Request, res: Response) => unknown;

export interface RouteInfo {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  access: Access;
}

export interface FeatureRoutes {
  router: Router;
  table: RouteInfo[];
}

type Method = RouteInfo['method'];
type Register = (path: string, opts: Access | RouteOptions, handler: Handler) => void;
export type RouteBuilder = Record<Method, Register>;

/**
 * A handler's return value is sent as JSON unless it already answered (streams, files, 204).
 */
function wrap(handler: Handler): RequestHandler {
  return async (req, res) => {
    const result = await handler(req, res);
    if (!res.headersSent && result !== undefined) res.json(result);
    else if (!res.headersSent && !res.writableEnded) res.status(res.statusCode === 200 ? 204 : res.statusCode).end();
  };
}

export function defineRoutes(build: (r: RouteBuilder) => void): FeatureRoutes {
  const router = express.Router();
  const table: RouteInfo[] = [];
  const register =
    (method: Method): Register =>
    (path, opts, handler) => {
      const o: RouteOptions = typeof opts === 'string' ? { access: opts } : opts;
      const chain: RequestHandler[] = [requireAccess(o.access)];
      if (o.limit) chain.push(o.limit.handler);
      if (method !== 'get' && o.jsonLimit !== false) chain.push(express.json({ limit: o.jsonLimit ?? DEFAULT_JSON_LIMIT }), checkJsonBody);
      router[method](path, ...chain, wrap(handler));
      table.push({ method, path, access: o.access });
    };
  build({ get: register('get'), post: register('post'), put: register('put'), patch: register('patch'), delete: register('delete') });
  return { router, table };
}
