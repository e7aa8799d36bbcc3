// The image engine's node schemas (ComfyUI `GET /object_info`) read into typed node definitions,
// and the shapes of the engine's answer to an invalid prompt; validate-graph.ts reproduces the
// engine's own check of a submitted graph with them. Pure: no I/O. The engine is an untrusted
// input, so its schema is parsed with zod.
import { z } from 'zod';

// ── Reading /object_info ────────────────────────────────────────────────────────────────────────

/** One input as object_info declares it: `[type]` or `[type, options]`; type is a name or a list. */
const RawInput = z.array(z.unknown()).min(1);
const RawInputs = z.record(z.string(), RawInput);
const RawNode = z.object({
  input: z.object({ required: RawInputs.optional(), optional: RawInputs.optional() }).default({}),
  // a few nodes return a list of names (a COMBO output): kept as the list
  output: z.array(z.union([z.string(), z.array(z.unknown())])).default([]),
  output_name: z.array(z.string()).optional(),
  output_node: z.boolean().default(false),
  python_module: z.string().optional(),
});
const RawObjectInfo = z.record(z.string(), RawNode);

export type InputCategory = 'required' | 'optional';

export interface InputDef {
  name: string;
  category: InputCategory;
  /** The type name (`INT`, `IMAGE`, `COMBO`, …) or, for a legacy enum, its list of values. */
  type: string | readonly unknown[];
  /** The options object (`default`, `min`, `max`, V3 `options`, tooltips); `{}` when there is none. */
  options: Readonly<Record<string, unknown>>;
  /** Enum values: a legacy list-style enum (`[[...], {...}]`) or a V3 `["COMBO", {options}]`. */
  enumValues: readonly unknown[] | null;
  /** V3 enums are not checked by 0.3.64 when a prompt is submitted (API.md §4). */
  enumStyle: 'legacy' | 'v3' | null;
}

export interface NodeDef {
  classType: string;
  /** Required inputs first, then optional ones, each in declaration order. */
  inputs: readonly InputDef[];
  /** RETURN_TYPES: what a link `[id, index]` to this node carries. */
  outputTypes: readonly (string | readonly unknown[])[];
  isOutputNode: boolean;
  pythonModule: string | null;
}

export type ObjectInfo = ReadonlyMap<string, NodeDef>;

function inputDef(name: string, category: InputCategory, raw: unknown[]): InputDef {
  const [type, opts] = raw;
  const options = opts !== null && typeof opts === 'object' && !Array.isArray(opts) ? (opts as Record<string, unknown>) : {};
  if (Array.isArray(type)) return { name, category, type, options, enumValues: type, enumStyle: 'legacy' };
  const typeName = typeof type === 'string' ? type : String(type);
  if (typeName === 'COMBO' && Array.isArray(options.options)) {
    return { name, category, type: typeName, options, enumValues: options.options as unknown[], enumStyle: 'v3' };
  }
  return { name, category, type: typeName, options, enumValues: null, enumStyle: null };
}

/**
 * Parses a `GET /object_info` answer (or several merged, e.g. core plus custom packs) into node
 * definitions. Throws a ZodError when the answer is not object_info-shaped.
 */
export function readObjectInfo(...answers: unknown[]): ObjectInfo {
  const out = new Map<string, NodeDef>();
  for (const answer of answers) {
    for (const [classType, node] of Object.entries(RawObjectInfo.parse(answer))) {
      const inputs: InputDef[] = [];
      for (const category of ['required', 'optional'] as const) {
        for (const [name, raw] of Object.entries(node.input[category] ?? {})) inputs.push(inputDef(name, category, raw));
      }
      out.set(classType, {
        classType,
        inputs,
        outputTypes: node.output as NodeDef['outputTypes'],
        isOutputNode: node.output_node,
        pythonModule: node.python_module ?? null,
      });
    }
  }
  return out;
}

/** The classes of `wanted` the engine does not have (a missing custom node pack). */
export function missingClasses(info: ObjectInfo, wanted: Iterable<string>): string[] {
  return [...new Set(wanted)].filter((c) => !info.has(c));
}

// ── The engine's answer to an invalid prompt ────────────────────────────────────────────────────

export interface PromptErrorReason {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown>;
}

export interface NodeErrorEntry {
  errors: PromptErrorReason[];
  dependent_outputs: string[];
  class_type: string;
}

export type NodeErrors = Record<string, NodeErrorEntry>;
