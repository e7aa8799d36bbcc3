// Boundary validation: routes parse params, query and body with the feature's zod schemas.
import { type z } from 'zod';
import { BadRequestError } from '../errors.js';

export interface IssueDetail {
  path: string;
  message: string;
}

export function zodDetails(error: z.ZodError): IssueDetail[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** Parses `value` or throws 400 invalid_request with the issues in `details`. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = zodDetails(result.error);
    const first = details[0];
    const where = first?.path ? ` (${first.path})` : '';
    const reason = (first?.message ?? 'check the fields').replace(/\.$/, '');
    throw new BadRequestError(`The request is not valid${where}: ${reason}.`, details);
  }
  return result.data;
}
