// Feature routers are declared through defineRoutes so that every route states its access level
// ('none' | 'user' | 'admin') — there is no default to forget — and the whole API's route table is
// known (tests walk it to prove anonymous 401 and member 403 everywhere).
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { requireAccess, type Access } from './auth.js';
import type { RequestLimit } from './rate-limit.js';
import { checkJsonBody } from './validate.js';

export const DEFAULT_JSON_LIMIT = '1mb';

/**
 * What a route answers, declared beside its access so the route table knows every response:
 * - a zod schema: the handler's return value, sent as JSON;
 * - `events({...})`: a server-sent event stream, each event name with the schema of its data
 *   (the `error` event `{code, message}` is added by the stream runner and need not be listed);
 * - `bytes('…')`: a file or proxied body, with a description of its content type;
 * - `NO_CONTENT`: 204 with no body.
 * With `app.locals.checkResponses` on (Config.checkResponses: every test server), each JSON answer
 * and each event is checked against its schema and a mismatch fails the request (500, logged), so a
 * schema cannot drift from what the route sends. In production nothing is checked.
 */
export type ResponseSpec = z.ZodType | EventsSpec | BytesSpec | typeof NO_CONTENT;
export interface EventsSpec {
  kind: 'events';
  events: Record<string, z.ZodType>;
}
export interface BytesSpec {
  kind: 'bytes';
  contentType: string;
}
export const NO_CONTENT = { kind: 'empty' } as const;
/**
 * A stream's events. Declare them in the module's schema.ts as one `z.object({name: dataSchema})`
 * so that `z.infer` of it is the event map the web app's `openEventStream<M>` takes.
 */
export const events = (schemas: z.ZodObject | Record<string, z.ZodType>): EventsSpec => ({
  kind: 'events',
  events: schemas instanceof z.ZodObject ? (schemas.shape as Record<string, z.ZodType>) : schemas,
});
export const bytes = (contentType: string): BytesSpec => ({ kind: 'bytes', contentType });
export type ResponseKind = 'json' | 'events' | 'bytes' | 'empty';

function kindOf(spec: ResponseSpec): ResponseKind {
  return spec instanceof z.ZodType ? 'json' : spec.kind;
}
const isZod = (spec: ResponseSpec): spec is z.ZodType => kindOf(spec) === 'json';

export interface RouteOptions {
  access: Access;
  /** What the route answers (see ResponseSpec). */
  response: ResponseSpec;
  /** JSON body limit for this route (default 1 MB); false when the route reads the body itself. */
  jsonLimit?: string | number | false;
  /** Requests per client (http/rate-limit.ts), counted before the body is read. */
  limit?: RequestLimit;
  /**
   * Left out of the request log (http/guards.ts `requestLog`): routes a client calls hundreds of
   * times a minute on purpose, whose lines would drown the log (the speed test's download and upload).
   */
  unlogged?: boolean;
}

export type Handler = (req: Request, res: Response) => unknown;

export interface RouteInfo {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  access: Access;
  response: ResponseKind;
}

export interface FeatureRoutes {
  router: Router;
  table: RouteInfo[];
}

type Method = RouteInfo['method'];
/** What a handler may return for its declared response: the schema's input for JSON routes. */
type Returned<S> = S extends z.ZodType ? z.input<S> | undefined : unknown;
type Register = <S extends ResponseSpec>(
  path: string,
  opts: RouteOptions & { response: S },
  handler: (req: Request, res: Response) => Returned<S> | Promise<Returned<S>>,
) => void;
export type RouteBuilder = Record<Method, Register>;

/**
 * A handler's return value is sent as JSON unless it already answered (streams, files, 204).
 */
function wrap(handler: Handler, spec: ResponseSpec, label: string): RequestHandler {
  return async (req, res) => {
    const check = req.app.locals.checkResponses === true;
    if (check && kindOf(spec) === 'events') res.locals.eventSchemas = (spec as EventsSpec).events;
    const result = await handler(req, res);
    if (check && isZod(spec) && !res.headersSent && result !== undefined) checkAgainst(spec, result, label);
    if (!res.headersSent && result !== undefined) res.json(result);
    else if (!res.headersSent && !res.writableEnded) res.status(res.statusCode === 200 ? 204 : res.statusCode).end();
  };
}

/** A route answered something its declared schema does not allow (only with checkResponses on). */
export class ResponseMismatch extends Error {
  constructor(label: string, detail: string) {
    super(`${label} answered outside its response schema: ${detail}`);
    this.name = 'ResponseMismatch';
  }
}

/**
 * Checks what the browser would receive (the value as JSON) against the schema: the schema must
 * accept it, and it may carry no field the schema does not declare — zod would strip such a field
 * silently, and an undeclared field is how a secret or an internal path reaches a browser.
 */
function checkAgainst(schema: z.ZodType, value: unknown, label: string): void {
  const wire: unknown = JSON.parse(JSON.stringify(value) ?? 'null');
  const parsed = schema.safeParse(wire);
  if (!parsed.success) {
    throw new ResponseMismatch(label, parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
  }
  const extra = undeclaredFields(wire, parsed.data, '');
  if (extra.length > 0) throw new ResponseMismatch(label, `fields not in the schema: ${extra.slice(0, 5).join(', ')}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths present in what was sent and missing from what the schema kept. */
function undeclaredFields(sent: unknown, kept: unknown, at: string): string[] {
  if (Array.isArray(sent) && Array.isArray(kept)) return sent.flatMap((v, i) => undeclaredFields(v, kept[i], `${at}[${i}]`));
  if (!isRecord(sent) || !isRecord(kept)) return [];
  return Object.keys(sent).flatMap((k) => {
    const path = at ? `${at}.${k}` : k;
    return k in kept ? undeclaredFields(sent[k], kept[k], path) : [path];
  });
}

/** Checks one event against the route's declared event schemas (called by http/sse.ts). */
export function checkEvent(res: Response, event: string, data: unknown): void {
  const schemas = res.locals.eventSchemas as Record<string, z.ZodType> | undefined;
  if (!schemas || event === 'error') return;
  const schema = schemas[event];
  if (!schema) throw new Error(`Stream event "${event}" is not declared in the route's events({...})`);
  checkAgainst(schema, data, `event "${event}"`);
}

const unlogged: RequestHandler = (_req, res, next) => {
  res.locals.unlogged = true;
  next();
};

export function defineRoutes(build: (r: RouteBuilder) => void): FeatureRoutes {
  const router = express.Router();
  const table: RouteInfo[] = [];
  const register =
    (method: Method): Register =>
    (path, opts, handler) => {
      const o: RouteOptions = opts;
      const chain: RequestHandler[] = [requireAccess(o.access)];
      if (o.unlogged) chain.unshift(unlogged);
      if (o.limit) chain.push(o.limit.handler);
      if (method !== 'get' && o.jsonLimit !== false) chain.push(express.json({ limit: o.jsonLimit ?? DEFAULT_JSON_LIMIT }), checkJsonBody);
      router[method](path, ...chain, wrap(handler, o.response, `${method.toUpperCase()} ${path}`));
      table.push({ method, path, access: o.access, response: kindOf(o.response) });
    };
  build({ get: register('get'), post: register('post'), put: register('put'), patch: register('patch'), delete: register('delete') });
  return { router, table };
}
