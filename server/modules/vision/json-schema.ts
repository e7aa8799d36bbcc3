// Checking answers against JSON schemas with ajv: the built-in tasks' schemas compiled once, the
// caller's (task `schema`) parsed and compiled per request, with a sentence for one that is not a
// JSON schema Hearth can check. ajv is loaded at the first analysis, not at start.
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';
import { BadRequestError } from '../../errors.js';
import { lazyRequire } from '../../platform/lazy.js';
import { MAX_SCHEMA_BYTES } from './schema.js';
import type { JsonSchema } from './tasks.js';

const loadAjv = lazyRequire<{ Ajv: typeof AjvClass }>('ajv');
let ajv: AjvClass | null = null;
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

// strict: false lets a schema carry keywords Ajv does not know (Ollama ignores them too); no
// loadSchema: a $ref to an address is never fetched
const fresh = (): AjvClass => new (loadAjv().Ajv)({ strict: false, allErrors: false, validateFormats: false, addUsedSchema: false });

function instance(): AjvClass {
  ajv ??= fresh();
  return ajv;
}

/** The checker for a schema (the built-in ones are compiled once). */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  const known = compiled.get(schema);
  if (known) return known;
  const v = instance().compile(schema);
  compiled.set(schema, v);
  return v;
}

const BAD_SCHEMA = 'The schema is not a JSON schema Hearth can use. Send a JSON object such as {"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]}.';

/** Keywords whose values are maps of names to schemas (the names are not keywords). */
const SCHEMA_MAPS = new Set(['properties', 'definitions', '$defs', 'dependentSchemas']);

/**
 * Whether a schema uses a regular expression (pattern, patternProperties): a caller's expression
 * can take the server's one thread minutes to check against an answer, so none is taken.
 */
export function usesPatterns(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(usesPatterns);
  if (typeof schema !== 'object' || schema === null) return false;
  return Object.entries(schema).some(([key, value]) => {
    if (key === 'pattern' || key === 'patternProperties') return true;
    if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null) return Object.values(value).some(usesPatterns);
    return usesPatterns(value);
  });
}

/** The caller's schema: JSON text of at most 4 KB describing an object, compiled; 400 with a sentence otherwise. */
export function callerSchema(text: string | undefined, truncated: boolean): { schema: JsonSchema; validate: ValidateFunction } {
  if (text === undefined || text.trim() === '') throw new BadRequestError('The schema task needs a schema: send your JSON schema in the form field named schema.', undefined, 'schema_required');
  if (truncated || Buffer.byteLength(text) > MAX_SCHEMA_BYTES) throw new BadRequestError(`The schema is larger than ${MAX_SCHEMA_BYTES / 1024} KB. Send a shorter one.`, undefined, 'schema_too_large');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadRequestError('The schema is not valid JSON. Check its quotes and brackets.', undefined, 'bad_schema');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || (parsed as { type?: unknown }).type !== 'object') {
    throw new BadRequestError('The schema must describe a JSON object: its top level needs "type": "object".', undefined, 'bad_schema');
  }
  if (usesPatterns(parsed)) {
    throw new BadRequestError('Hearth does not take patterns (pattern, patternProperties) in a schema: checking one can hold the server up. Describe the text in the field’s description instead.', undefined, 'bad_schema');
  }
  // its own name and dialect are not Hearth's to look up; each caller's schema gets its own checker
  const { $id: _id, $schema: _dialect, ...schema } = parsed as JsonSchema;
  try {
    return { schema, validate: fresh().compile(schema) };
  } catch {
    throw new BadRequestError(BAD_SCHEMA, undefined, 'bad_schema');
  }
}
