// Boundary validation: routes parse params, query and body with the feature's zod schemas.
// Before any schema, every parsed input is checked for what no schema should have to think about:
// JSON nested too deep to handle safely, and text that is not well-formed Unicode.
import type { RequestHandler } from 'express';
import { type z } from 'zod';
import { BadRequestError } from '../errors.js';

export interface IssueDetail {
  path: string;
  message: string;
}

/** JSON bodies nest at most this deep: deeper values overflow recursive code (JSON.stringify, zod). */
export const MAX_JSON_DEPTH = 64;

export function zodDetails(error: z.ZodError): IssueDetail[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function invalid(details: IssueDetail[]): BadRequestError {
  const first = details[0];
  const where = first?.path ? ` (${first.path})` : '';
  const reason = (first?.message ?? 'check the fields').replace(/\.$/, '');
  return new BadRequestError(`The request is not valid${where}: ${reason}.`, details);
}

// String.prototype.isWellFormed (Node 20+; not in the ES2023 typings): true unless a lone surrogate.
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

interface Frame {
  v: unknown;
  key: string;
  parent: Frame | null;
  depth: number;
}

const LONE_SURROGATE_MESSAGE = 'This text is not valid Unicode (it has a lone surrogate)';

const pathOf = (f: Frame | null): string => {
  const keys: string[] = [];
  for (let at = f; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
};

/**
 * The first problem in an already parsed value: an object or array nested deeper than `maxDepth`,
 * or a string or key holding a lone UTF-16 surrogate (JSON's `\udaaa` escape). Such text cannot be
 * stored as UTF-8: SQLite would keep replacement bytes, so two different names would read back the
 * same. Walks with its own stack, so no input can overflow the call stack here; a 1 MB body takes
 * a few milliseconds.
 */
export function findInputProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): IssueDetail | null {
  if (typeof value === 'string') return isWellFormed(value) ? null : { path: '', message: LONE_SURROGATE_MESSAGE };
  if (value === null || typeof value !== 'object') return null;
  // only objects and arrays get a frame; strings are checked where they are found
  const stack: Frame[] = [{ v: value, key: '', parent: null, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) return { path: pathOf(frame), message: `Values may be nested at most ${maxDepth} levels deep` };
    const v = frame.v as Record<string, unknown>;
    const isArray = Array.isArray(v);
    for (const key in v) {
      if (!isArray && !Object.hasOwn(v, key)) continue;
      if (!isWellFormed(key)) return { path: pathOf(frame), message: 'A field name is not valid Unicode (it has a lone surrogate)' };
      const child = v[key];
      if (typeof child === 'string') {
        if (!isWellFormed(child)) return { path: pathOf({ v: child, key, parent: frame, depth: frame.depth + 1 }), message: LONE_SURROGATE_MESSAGE };
      } else if (child !== null && typeof child === 'object') {
        stack.push({ v: child, key, parent: frame, depth: frame.depth + 1 });
      }
    }
  }
  return null;
}

/** Runs right after the JSON parser: 400 invalid_request naming the field, before any handler. */
export const checkJsonBody: RequestHandler = (req, _res, next) => {
  const problem = findInputProblem(req.body);
  if (problem) throw invalid([problem]);
  next();
};

/** Parses `value` or throws 400 invalid_request with the issues in `details`. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  // params and query strings too: a route parameter or query value is checked like a body field
  const problem = findInputProblem(value);
  if (problem) throw invalid([problem]);
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(zodDetails(result.error));
  return result.data;
}
