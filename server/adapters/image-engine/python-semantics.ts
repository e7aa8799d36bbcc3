// Python's semantics that the image engine's validation messages are made of (repr, str, int and
// float conversion, ==, dict and tuple lookups, its input type match), so that validate-graph.ts
// answers with the same texts as the engine's execution.py (reference/comfyui/API.md §3-§5).
// Pure: no I/O.
/** An exception as Python would raise it while validating (caught into a reason by the caller). */
export class PyException extends Error {
  constructor(
    readonly pyType: string,
    readonly pyStr: string,
  ) {
    super(pyStr);
  }
}

export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
}

export function pyFloat(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? n.toFixed(1) : String(n);
}

/** Python's repr() of a JSON value (JSON numbers without a fraction print as ints). */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : pyFloat(v);
  if (typeof v === 'string') return pyStrRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`)
    .join(', ')}}`;
}

/** Python's str(). */
export const pyStr = (v: unknown): string => (typeof v === 'string' ? v : pyRepr(v));

const pyTypeName = (v: unknown): string =>
  v === null || v === undefined ? 'NoneType' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'float') : typeof v === 'string' ? 'str' : Array.isArray(v) ? 'list' : 'dict';

export function pyInt(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) throw new PyException('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new PyException('OverflowError', 'cannot convert float infinity to integer');
    return Math.trunc(v);
  }
  if (typeof v === 'string') {
    if (/^\s*[+-]?\d+(_\d+)*\s*$/.test(v)) return Number(v.replace(/_/g, '').trim());
    throw new PyException('ValueError', `invalid literal for int() with base 10: ${pyStrRepr(v)}`);
  }
  throw new PyException('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`);
}

export function pyFloatOf(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (/^[+-]?(inf|infinity)$/.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(s)) return NaN;
    if (/^[+-]?((\d+(_\d+)*)(\.(\d+(_\d+)*)?)?|\.\d+(_\d+)*)(e[+-]?\d+(_\d+)*)?$/.test(s)) return Number(s.replace(/_/g, ''));
    throw new PyException('ValueError', `could not convert string to float: ${pyStrRepr(v)}`);
  }
  throw new PyException('TypeError', `float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

export const pyBool = (v: unknown): boolean =>
  !(v === null || v === undefined || v === false || v === 0 || v === '' || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0));

/** Python `==` between JSON values (1 == 1.0 == True). */
export function pyEq(a: unknown, b: unknown): boolean {
  const num = (x: unknown): number | null => (typeof x === 'number' ? x : typeof x === 'boolean' ? Number(x) : null);
  const na = num(a);
  const nb = num(b);
  if (na !== null || nb !== null) return na === nb;
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Python dict lookup `graph[key]`: a KeyError names the key as str(KeyError(key)) does. */
export function lookup(graph: Record<string, unknown>, key: unknown): unknown {
  if (Array.isArray(key) || (key !== null && typeof key === 'object')) throw new PyException('TypeError', `unhashable type: '${pyTypeName(key)}'`);
  if (typeof key === 'string' && Object.hasOwn(graph, key)) return graph[key];
  throw new PyException('KeyError', pyRepr(key));
}

/** Python tuple indexing `RETURN_TYPES[index]` (negative indices count from the end). */
export function tupleAt<T>(tuple: readonly T[], index: unknown): T {
  if (typeof index !== 'number' && typeof index !== 'boolean') throw new PyException('TypeError', `tuple indices must be integers or slices, not ${pyTypeName(index)}`);
  if (typeof index === 'number' && !Number.isInteger(index)) throw new PyException('TypeError', 'tuple indices must be integers or slices, not float');
  const i = Number(index);
  const at = i < 0 ? tuple.length + i : i;
  if (at < 0 || at >= tuple.length) throw new PyException('IndexError', 'tuple index out of range');
  return tuple[at] as T;
}

/** comfy_execution/validation.py validate_node_input (non-strict), with `*` matching anything. */
export function typesMatch(received: unknown, wanted: unknown): boolean {
  if (received === wanted) return true;
  if (typeof received !== 'string' || typeof wanted !== 'string') return false;
  const r = new Set(received.split(',').map((t) => t.trim()));
  const w = new Set(wanted.split(',').map((t) => t.trim()));
  if (r.has('*') || w.has('*')) return true;
  return [...r].some((t) => w.has(t));
}
