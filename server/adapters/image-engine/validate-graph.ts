// validateGraph: the image engine's own check of a submitted graph (`POST /prompt`), reproduced
// from its execution.py (reference/comfyui/API.md §3-§5, 0.3.64) with the same error shapes, so
// that Hearth can tell which nodes a pipeline misses and the test fake refuses a graph exactly as
// the engine does. Pure: no I/O.
import type { InputDef, NodeDef, NodeErrors, ObjectInfo, PromptErrorReason } from './object-info.js';
import { lookup, PyException, pyBool, pyEq, pyFloat, pyFloatOf, pyInt, pyRepr, pyStr, tupleAt, typesMatch } from './python-semantics.js';

/** The 400 body of `POST /prompt`, or the accepted outputs with any per-output failures (a 200). */
export type GraphValidation =
  | { ok: true; outputs: string[]; node_errors: NodeErrors }
  | { ok: false; error: PromptErrorReason; node_errors: NodeErrors };

export interface ValidateOptions {
  /**
   * `0.3.64` (the default) is the engine of the reference; `newer` also reproduces what API.md §12
   * marks as the second dialect: `missing_node_type`, V3 COMBO values checked, cycles refused.
   */
  dialect?: '0.3.64' | 'newer';
  /**
   * Stricter than the engine, for Hearth's own graphs (API.md §11): also refuses nodes no output
   * uses, inputs the node does not declare (the engine ignores a misspelt one), widget values of
   * the wrong JSON type (the engine would coerce "20" or 7.9), V3 COMBO values, negative or
   * fractional output indices and cycles; model and image file names only need to be strings.
   */
  strict?: boolean;
  /** LoadImage's own check that the file is in the engine's input folder; default: in its list. */
  inputFileExists?: (name: string) => boolean;
}


const MODEL_FILE = /\.(safetensors|ckpt|pt|pt2|bin|pth|pkl|sft|onnx|gguf)$/i;
const IMAGE_FILE = /\.(png|jpe?g|webp|gif|bmp|tiff?)$/i;
/** Nodes whose `image` input is checked by their own VALIDATE_INPUTS ("file exists in input/"). */
const FILE_CHECKED = new Set(['LoadImage', 'LoadImageMask']);

/** An enum that lists files on disk: in strict mode any file name (a string) passes. */
const isFileList = (values: readonly unknown[]): boolean => values.some((v) => typeof v === 'string' && (MODEL_FILE.test(v) || IMAGE_FILE.test(v)));

/** `x.png [input]` style annotations name the folder; the check is on the name. */
const stripAnnotation = (name: string): string => name.replace(/ \[(input|output|temp)\]$/, '');

// ── validateGraph ───────────────────────────────────────────────────────────────────────────────

type Verdict = [valid: boolean, reasons: PromptErrorReason[]];

interface NodeObject {
  class_type?: unknown;
  inputs?: unknown;
  _meta?: { title?: unknown };
}

const asNode = (v: unknown): NodeObject => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as NodeObject) : {});

function strictWidgetProblem(input: InputDef, val: unknown): string | null {
  const t = input.type;
  if (t === 'INT') return typeof val === 'number' && Number.isInteger(val) ? null : 'a JSON integer';
  if (t === 'FLOAT') return typeof val === 'number' ? null : 'a JSON number';
  if (t === 'STRING') return typeof val === 'string' ? null : 'a JSON string';
  if (t === 'BOOLEAN') return typeof val === 'boolean' ? null : 'a JSON boolean';
  return null;
}

/**
 * Checks a graph in API format as the engine does on `POST /prompt` (API.md §4): unknown or
 * missing class_type, missing required inputs, bad links, return-type mismatches, links to missing
 * nodes or outputs, values that do not convert, are out of min/max or not in a legacy enum, and
 * LoadImage files that are not there. Answers with the engine's own error shapes and texts.
 * Nodes and inputs are visited in declaration order (the engine iterates sets).
 */
export function validateGraph(graph: Record<string, unknown>, info: ObjectInfo, opts: ValidateOptions = {}): GraphValidation {
  const newer = opts.dialect === 'newer';
  const strict = opts.strict === true;
  const fileExists = opts.inputFileExists;

  const outputs: string[] = [];
  for (const [id, raw] of Object.entries(graph)) {
    const node = asNode(raw);
    const title = typeof node._meta?.title === 'string' ? node._meta.title : null;
    if (!('class_type' in node)) {
      const error: PromptErrorReason = newer
        ? { type: 'missing_node_type', message: `Node '${title ?? `ID #${id}`}' has no class_type. The workflow may be corrupted or a custom node is missing.`, details: `Node ID '#${id}'`, extra_info: { node_id: id, class_type: null, node_title: title } }
        : { type: 'invalid_prompt', message: 'Cannot execute because a node is missing the class_type property.', details: `Node ID '#${id}'`, extra_info: {} };
      return { ok: false, error, node_errors: {} };
    }
    const classType = node.class_type;
    const def = typeof classType === 'string' ? info.get(classType) : undefined;
    if (!def) {
      const name = pyStr(classType);
      const error: PromptErrorReason = newer
        ? { type: 'missing_node_type', message: `Node '${title ?? name}' not found. The custom node may not be installed.`, details: `Node ID '#${id}'`, extra_info: { node_id: id, class_type: classType, node_title: title ?? name } }
        : { type: 'invalid_prompt', message: `Cannot execute because node ${name} does not exist.`, details: `Node ID '#${id}'`, extra_info: {} };
      return { ok: false, error, node_errors: {} };
    }
    if (def.isOutputNode) outputs.push(id);
  }
  if (outputs.length === 0) {
    return { ok: false, error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} }, node_errors: {} };
  }

  if (newer || strict) {
    const cycle = findCycle(graph);
    if (cycle) {
      const details = cycle.map((id) => `${id} (${pyStr(asNode(graph[id]).class_type)})`).join(' -> ');
      return { ok: false, error: { type: 'dependency_cycle', message: 'Dependency cycle detected', details, extra_info: { cycle_nodes: cycle } }, node_errors: {} };
    }
  }

  const validated = new Map<string, Verdict>();
  const inProgress = new Set<string>();

  // execution.py validate_inputs; throws PyException where the engine's code would raise
  const validateInputs = (id: string): Verdict => {
    const done = validated.get(id);
    if (done) return done;
    // 0.3.64 lets a cycle through validation (it fails when run); the other modes refused it above
    if (inProgress.has(id)) return [true, []];
    inProgress.add(id);
    try {
      const node = asNode(graph[id]);
      if (!('inputs' in node)) throw new PyException('KeyError', "'inputs'");
      const inputs = (node.inputs ?? {}) as Record<string, unknown>;
      const def = info.get(node.class_type as string) as NodeDef;
      const errors: PromptErrorReason[] = [];
      let valid = true;

      for (const input of def.inputs) {
        const x = input.name;
        if (!Object.hasOwn(inputs, x)) {
          if (input.category === 'required') errors.push({ type: 'required_input_missing', message: 'Required input is missing', details: x, extra_info: { input_name: x } });
          continue;
        }
        let val = inputs[x];
        const inputConfig = [input.type, input.options];
        if (Array.isArray(val)) {
          if (val.length !== 2) {
            errors.push({ type: 'bad_linked_input', message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]', details: x, extra_info: { input_name: x, input_config: inputConfig, received_value: val } });
            continue;
          }
          const [sourceId, index] = val as [unknown, unknown];
          if (strict && (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || typeof sourceId !== 'string')) {
            errors.push({ type: 'bad_linked_input', message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]', details: x, extra_info: { input_name: x, input_config: inputConfig, received_value: val } });
            continue;
          }
          const source = asNode(lookup(graph, sourceId));
          const sourceDef = info.get(source.class_type as string);
          if (!sourceDef) throw new PyException('KeyError', pyRepr(source.class_type));
          const receivedType = tupleAt(sourceDef.outputTypes, index);
          if (!typesMatch(receivedType, input.type)) {
            errors.push({
              type: 'return_type_mismatch',
              message: 'Return type mismatch between linked nodes',
              details: `${x}, received_type(${pyStr(receivedType)}) mismatch input_type(${pyStr(input.type)})`,
              extra_info: { input_name: x, input_config: inputConfig, received_type: receivedType, linked_node: val },
            });
            continue;
          }
          try {
            if (!validateInputs(sourceId as string)[0]) valid = false;
          } catch (e) {
            if (!(e instanceof PyException)) throw e;
            valid = false;
            // attached to the node that holds the bad link, replacing its own reasons
            validated.set(sourceId as string, [
              false,
              [
                {
                  type: 'exception_during_inner_validation',
                  message: 'Exception when validating inner node',
                  details: e.pyStr,
                  extra_info: { input_name: x, input_config: inputConfig, exception_message: e.pyStr, exception_type: e.pyType, traceback: [], linked_node: val },
                },
              ],
            ]);
          }
          continue;
        }

        // a widget value
        if (val !== null && typeof val === 'object' && Object.hasOwn(val, '__value__')) val = (val as { __value__: unknown }).__value__;
        if (strict) {
          const want = strictWidgetProblem(input, val);
          if (want) {
            errors.push({ type: 'invalid_input_type', message: `Expected ${want} for a ${pyStr(input.type)} input`, details: `${x}, ${pyStr(val)}`, extra_info: { input_name: x, input_config: inputConfig, received_value: val } });
            continue;
          }
        }
        let shown = pyStr(val);
        try {
          if (input.type === 'INT') {
            val = pyInt(val);
            shown = String(val);
          } else if (input.type === 'FLOAT') {
            val = pyFloatOf(val);
            shown = pyFloat(val as number);
          } else if (input.type === 'STRING') val = shown = pyStr(val);
          else if (input.type === 'BOOLEAN') val = pyBool(val);
        } catch (e) {
          if (!(e instanceof PyException)) throw e;
          errors.push({
            type: 'invalid_input_type',
            message: `Failed to convert an input value to a ${pyStr(input.type)} value`,
            details: `${x}, ${pyStr(val)}, ${e.pyStr}`,
            extra_info: { input_name: x, input_config: inputConfig, received_value: val, exception_message: e.pyStr },
          });
          continue;
        }

        if (FILE_CHECKED.has(def.classType) && x === 'image') {
          // VALIDATE_INPUTS(image) replaces min/max/enum with "the file is in input/"
          const name = stripAnnotation(pyStr(val));
          const exists = fileExists ? fileExists(name) : strict ? typeof val === 'string' : (input.enumValues ?? []).some((v) => v === name);
          if (!exists) errors.push({ type: 'custom_validation_failed', message: 'Custom validation failed for node', details: `${x} - Invalid image file: ${pyStr(val)}`, extra_info: { input_name: x } });
          continue;
        }
        const min = input.options.min;
        const max = input.options.max;
        if (typeof min === 'number' && typeof val === 'number' && val < min) {
          errors.push({ type: 'value_smaller_than_min', message: `Value ${shown} smaller than min of ${pyRepr(min)}`, details: x, extra_info: { input_name: x, input_config: inputConfig, received_value: val } });
          continue;
        }
        if (typeof max === 'number' && typeof val === 'number' && val > max) {
          errors.push({ type: 'value_bigger_than_max', message: `Value ${shown} bigger than max of ${pyRepr(max)}`, details: x, extra_info: { input_name: x, input_config: inputConfig, received_value: val } });
          continue;
        }
        const values = input.enumValues;
        const checkEnum = values !== null && (input.enumStyle === 'legacy' || newer || strict);
        if (checkEnum && !(strict && isFileList(values) && typeof val === 'string') && !values.some((v) => pyEq(v, val))) {
          const big = values.length > 20;
          errors.push({
            type: 'value_not_in_list',
            message: 'Value not in list',
            details: `${x}: ${input.enumStyle === 'v3' ? pyRepr(val) : `'${pyStr(val)}'`} not in ${big ? `(list of length ${values.length})` : pyRepr(values)}`,
            extra_info: { input_name: x, input_config: big ? null : inputConfig, received_value: val },
          });
        }
      }

      if (strict) {
        const declared = new Set(def.inputs.map((i) => i.name));
        for (const name of Object.keys(inputs)) {
          if (!declared.has(name)) errors.push({ type: 'unknown_input', message: 'Input is not declared by the node', details: name, extra_info: { input_name: name } });
        }
      }

      const verdict: Verdict = errors.length > 0 || !valid ? [false, errors] : [true, []];
      validated.set(id, verdict);
      return verdict;
    } finally {
      inProgress.delete(id);
    }
  };

  const goodOutputs: string[] = [];
  const failed: [string, PromptErrorReason[]][] = [];
  const nodeErrors: NodeErrors = {};
  for (const o of outputs) {
    let verdict: Verdict;
    try {
      verdict = validateInputs(o);
    } catch (e) {
      if (!(e instanceof PyException)) throw e;
      verdict = [false, [{ type: 'exception_during_validation', message: 'Exception when validating node', details: e.pyStr, extra_info: { exception_type: e.pyType, traceback: [] } }]];
      validated.set(o, verdict);
    }
    if (verdict[0]) {
      goodOutputs.push(o);
      continue;
    }
    failed.push([o, verdict[1]]);
    // as the engine does: every failed node seen so far is listed with this output as dependent
    for (const [nodeId, [valid, reasons]] of validated) {
      if (valid || reasons.length === 0) continue;
      nodeErrors[nodeId] ??= { errors: reasons, dependent_outputs: [], class_type: pyStr(asNode(graph[nodeId]).class_type) };
      nodeErrors[nodeId].dependent_outputs.push(o);
    }
  }

  if (strict) {
    // a node no output uses is never checked by the engine; Hearth's graphs have none
    for (const id of Object.keys(graph)) {
      if (validated.has(id)) continue;
      nodeErrors[id] = { errors: [{ type: 'dangling_node', message: 'Node is not used by any output', details: id, extra_info: {} }], dependent_outputs: [], class_type: pyStr(asNode(graph[id]).class_type) };
    }
  }

  if (goodOutputs.length === 0 || (strict && Object.keys(nodeErrors).length > 0)) {
    const lines = strict
      ? Object.values(nodeErrors).flatMap((n) => n.errors)
      : failed.flatMap(([, reasons]) => reasons);
    return {
      ok: false,
      error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: lines.map((r) => `${r.message}: ${r.details}`).join('\n'), extra_info: {} },
      node_errors: nodeErrors,
    };
  }
  return { ok: true, outputs: goodOutputs, node_errors: nodeErrors };
}

/** The first link cycle, as node ids from a node back to itself; null when there is none. */
function findCycle(graph: Record<string, unknown>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 2) return null;
    if (state.get(id) === 1) return [...path.slice(path.indexOf(id)), id];
    state.set(id, 1);
    path.push(id);
    const inputs = asNode(graph[id]).inputs;
    for (const v of Object.values(inputs !== null && typeof inputs === 'object' ? inputs : {})) {
      if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && Object.hasOwn(graph, v[0])) {
        const found = visit(v[0]);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, 2);
    return null;
  };
  for (const id of Object.keys(graph)) {
    const found = visit(id);
    if (found) return found;
  }
  return null;
}
