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

// With the u flag a surrogate pair is one code point, so only a lone surrogate matches.
const LONE_SURROGATE = /\p{Cs}/u;

export function zodDetails(error: z.ZodError): IssueDetail[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function invalid(details: IssueDetail[]): BadRequestError {
  const first = details[0];
  const where = first?.path ? ` (${first.path})` : '';
  const reason = (first?.message ?? 'check the fields').replace(/\.$/, '');
  return new BadRequestError(`The request is not valid${where}: ${reason}.`, details);
}

/**
 * The first problem in an already parsed value: an object or array nested deeper than `maxDepth`,
 * or a string or key holding a lone UTF-16 surrogate (JSON's `\udaaa` escape). Such text cannot be
 * stored as UTF-8: SQLite would keep replacement bytes, so two different names would read back the
 * same. Walks with its own stack, so no input can overflow the call stack here.
 */
export function findInputProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): IssueDetail | null {
  const stack: Array<{ v: unknown; path: string[] }> = [{ v: value, path: [] }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return { path: path.join('.'), message: 'This text is not valid Unicode (it has a lone surrogate)' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= maxDepth) return { path: path.join('.'), message: `Values may be nested at most ${maxDepth} levels deep` };
    for (const [key, child] of Object.entries(v)) {
      if (LONE_SURROGATE.test(key)) return { path: path.join('.'), message: 'A field name is not valid Unicode (it has a lone surrogate)' };
      if (typeof child === 'string' || (child !== null && typeof child === 'object')) stack.push({ v: child, path: [...path, key] });
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
