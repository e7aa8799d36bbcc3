// A protocol-faithful stand-in for Ollama (reference/ollama.md): node:http on 127.0.0.1:0 with
// canned models (a chat model with tools, a vision model, an embedding model), NDJSON streaming
// with small delays, pull progress per layer, Ollama's error bodies, and failure modes switched at
// run time ('down', 'slow', 'garbage', 'cut', 'error-line', and for streams 'slow-first-token' and
// 'garbage-line'), optionally for one path only. Tool calls come when the question names a tool's
// subject, or as a test scripts them. Every request is recorded, with whether its client left.
// Vision: a request carrying `images` is a transcription when its prompt asks to transcribe (the
// label text a test set, visionTranscript) and a description otherwise (visionDescription). A
// `format` JSON schema asking for a device's label fields (serialNumber…) is answered by reading
// "Model:"/"Serial:" lines out of the prompt, copied verbatim, unless garbageJsonReplies says to
// send garbage for the next few. A request carrying images and a `format` JSON schema is answered
// in that schema (built from it: a receipt's shop, items and total and a label's fields read from
// the OCR text given between <ocr> tags, a caption and the objects seen, text as OCR read it), unless
// schemaMode says to break the schema once, then comply, or always.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * ok; down (not listening); slow (every answer held back slowMs before its first byte); garbage (an
 * HTML body instead of JSON); cut (half the answer, then the connection drops); error-line (an
 * {error} line mid-stream; 500 elsewhere); slow-first-token (a stream's headers at once, its first
 * line after slowMs); garbage-line (a stream's line that is not JSON, mid-stream).
 */
export type FakeMode = 'ok' | 'down' | 'slow' | 'garbage' | 'cut' | 'error-line' | 'slow-first-token' | 'garbage-line';

export interface FakeModel {
  name: string;
  family: string;
  parameterSize: string;
  quantization: string;
  sizeBytes: number;
  capabilities: Array<'completion' | 'tools' | 'vision' | 'embedding' | 'thinking'>;
  /** The trained context window /api/show reports (`<family>.context_length`); 131072 when not set. */
  contextLength?: number;
  /** Embedding length, for /api/embed. */
  embeddingLength?: number;
}

export interface PullableModel extends FakeModel {
  layers: Array<{ digest: string; total: number }>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON when the body was JSON, the raw text otherwise, undefined when empty. */
  body: unknown;
  at: number;
  /** True once the client closed the connection before the answer was complete (a stopped chat). */
  aborted: boolean;
}

export const CHAT_MODEL: FakeModel = {
  name: 'llama3.2:3b',
  family: 'llama',
  parameterSize: '3.2B',
  quantization: 'Q4_K_M',
  sizeBytes: 2_019_393_189,
  capabilities: ['completion', 'tools'],
};
export const VISION_MODEL: FakeModel = {
  name: 'llava:7b',
  family: 'llama',
  parameterSize: '7B',
  quantization: 'Q4_0',
  sizeBytes: 4_733_363_377,
  capabilities: ['completion', 'vision'],
};
export const EMBEDDING_MODEL: FakeModel = {
  name: 'nomic-embed-text:latest',
  family: 'nomic-bert',
  parameterSize: '137M',
  quantization: 'F16',
  sizeBytes: 274_302_450,
  capabilities: ['embedding'],
  embeddingLength: 768,
};
/** Not installed at start; /api/pull fetches it. */
export const PULLABLE_MODEL: PullableModel = {
  name: 'qwen3:0.6b',
  family: 'qwen3',
  parameterSize: '751.63M',
  quantization: 'Q4_K_M',
  sizeBytes: 522_653_767,
  capabilities: ['completion', 'tools', 'thinking'],
  layers: [
    { digest: `sha256:${'7f4030143c1c'.padEnd(64, '0')}`, total: 522_640_640 },
    { digest: `sha256:${'ae370d884f10'.padEnd(64, '1')}`, total: 1_660 },
    { digest: `sha256:${'d18a5cc71b84'.padEnd(64, '2')}`, total: 11_338 },
  ],
};

export const FAKE_VERSION = '0.12.6';
export const CANNED_REPLY = 'Hello from the fake model runtime. How can I help?';
export const CANNED_DESCRIPTION = 'A white front-loading washing machine with a round glass door and a control dial.';
export const CANNED_TRANSCRIPT = 'I cannot read any text in this picture.';

/** The label fields a reconcile request asks for, read from the prompt as a careful model would (values verbatim). */
export function fakeReconcile(prompt: string): Record<string, unknown> {
  const line = (re: RegExp) => (prompt.match(re)?.[1] ?? '').trim() || null;
  const model = line(/^\s*(?:model(?: no\.?| number)?|type)\s*[:.]\s*(\S.*)$/im);
  const serial = line(/^\s*(?:serial(?: no\.?| number)?|s\/n|sn)\s*[:.]\s*(\S.*)$/im);
  const made = line(/^\s*(?:manufactured|mfg\.?(?: date)?|date of manufacture)\s*[:.]\s*(\S.*)$/im);
  const brand = line(/^\s*([A-Z][A-Z0-9&-]{2,})\s*$/m);
  const voltage = line(/^\s*rated voltage\s*:\s*(\S.*)$/im);
  const power = line(/^\s*rated power\s*:\s*(\S.*)$/im);
  const washing = /washing machine/i.test(prompt);
  return {
    name: washing ? 'Washing machine' : brand && model ? `${brand} ${model}` : null,
    brand,
    model,
    serialNumber: serial,
    category: washing ? 'appliance' : null,
    manufacturedDate: made,
    labelSpecs: { ...(voltage ? { 'Rated voltage': voltage } : {}), ...(power ? { 'Rated power': power } : {}) },
    confidence: model && serial ? 0.9 : 0.3,
  };
}

/** How a vision request with a `format` schema is answered: in the schema; breaking it once, then in it; always breaking it. */
export type SchemaMode = 'follow' | 'break-once' | 'break-always';

/** An answer that is JSON but not in the schema asked for (a model that ignored `format`). */
export const SCHEMA_BREAKING_REPLY = JSON.stringify({ answer: 'Here is what I see in the picture.' });

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; minimum?: number; additionalProperties?: unknown };

/** "Milk 1L   1.29" → {name, price}; a receipt's lines as OCR read them. */
export function fakeReceipt(ocr: string): Record<string, unknown> {
  const lines = ocr.split('\n').map((l) => l.trim()).filter(Boolean);
  const priceLine = /^(.*?\S)\s+[$€£]?(\d+[.,]\d{2})\s*$/;
  const items: Array<{ name: string; price: number }> = [];
  let total: number | null = null;
  for (const line of lines) {
    const m = priceLine.exec(line);
    if (!m) continue;
    const price = Number(m[2]!.replace(',', '.'));
    if (/^total\b/i.test(m[1]!)) total = price;
    else if (!/subtotal|tax|vat|change|cash|card/i.test(m[1]!)) items.push({ name: m[1]!.trim(), price });
  }
  const date = /\b(\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})\b/.exec(ocr)?.[1] ?? null;
  return { shop: lines[0] ?? null, date, items, total };
}

/** A value in the schema, as a careful model fills it: from the OCR text when there is some. */
export function fakeSchemaAnswer(schema: Schema, ctx: { ocr: string | null; description: string; objects: string[]; transcript: string }): unknown {
  const props = schema.properties ?? {};
  if ('items' in props && 'total' in props && 'shop' in props) return fakeReceipt(ctx.ocr ?? '');
  if ('serial' in props && 'brand' in props) {
    const r = fakeReconcile(ctx.ocr ?? '');
    return { product: r.name, brand: r.brand, model: r.model, serial: r.serialNumber, fields: r.labelSpecs };
  }
  const value = (s: Schema, key: string): unknown => {
    const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : (s.type ?? 'string');
    if (s.enum) return s.enum[0];
    switch (type) {
      case 'object':
        return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, p]) => [k, value(p, k)]));
      case 'array':
        return key === 'objects' ? [...ctx.objects] : [value(s.items ?? {}, key)];
      case 'number':
      case 'integer':
        return Math.max(1, s.minimum ?? 1);
      case 'boolean':
        return true;
      case 'null':
        return null;
      default:
        if (key === 'caption') return ctx.description;
        if (key === 'text') return ctx.ocr ?? ctx.transcript;
        return 'example';
    }
  };
  return value(schema, '');
}

export interface FakeModelRuntimeOptions {
  models?: FakeModel[];
  pullable?: PullableModel[];
  /** Delay between streamed NDJSON lines (default 5 ms). */
  chunkDelayMs?: number;
  /** The reply to /api/chat (see FakeModelRuntime.chatReply). */
  chatReply?: ChatReply | null;
}

export interface FakeChatRequest {
  model: string;
  messages: Array<{ role?: string; content?: string; images?: string[]; tool_calls?: unknown[]; tool_name?: string }>;
  format?: unknown;
  options?: unknown;
  tools?: ToolDef[];
}

/** A tool call the fake model makes. */
export interface FakeToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

/**
 * Scripted tool calls: return the calls the model makes for this request (even to tools it was not
 * offered, or with arguments that do not fit), or null to behave as usual.
 */
export type ToolScript = (req: FakeChatRequest) => FakeToolCall[] | null;

/** A canned chat reply, or one computed from the request; sent verbatim, even with `format`. */
export type ChatReply = string | ((req: FakeChatRequest) => string);

export interface FakeModelRuntime {
  readonly url: string;
  readonly port: number;
  readonly mode: FakeMode;
  /** Delay between streamed lines; tests may change it (e.g. a long answer to stop midway). */
  chunkDelayMs: number;
  /** Installed models; tests may edit the list. */
  models: FakeModel[];
  requests: RecordedRequest[];
  /**
   * What /api/chat answers (when no tool call is due): null gives the built-in CANNED_REPLY
   * (wrapped as {"answer": ...} when a format is asked for); a string or a function of the
   * request is sent as is, so a test can hand back valid JSON, garbage, or an empty reply.
   */
  chatReply: ChatReply | null;
  /** Scripted tool calls (see ToolScript); null: a tool call only when the question names a tool's subject. */
  toolScript: ToolScript | null;
  /** What a vision request asking to transcribe a label answers (default CANNED_TRANSCRIPT: nothing readable). */
  visionTranscript: string;
  /** What a vision request asking to describe a picture answers. */
  visionDescription: string;
  /** The next this-many `format` (JSON) replies are garbage that is not the JSON asked for (a model that rambles). */
  garbageJsonReplies: number;
  /** The things a vision request in a schema with `objects` says it saw. */
  visionObjects: string[];
  /** How a vision request with a `format` schema is answered (default follow). */
  schemaMode: SchemaMode;
  /**
   * Switches the failure mode. 'down' closes the listener and cuts open sockets; leaving it listens
   * again on the same port. `only` limits the mode to one path (e.g. '/api/chat'): the rest answers as 'ok'.
   */
  setMode(mode: FakeMode, opts?: { slowMs?: number; only?: string }): Promise<void>;
  close(): Promise<void>;
}

const NOT_FOUND = (model: string) => ({ error: `model '${model}' not found` });
const normalize = (name: string) => (name.includes(':') ? name : `${name}:latest`);
const digestOf = (name: string) => createHash('sha256').update(name).digest('hex');

/** A small model the fake can pull: one layer of `total` bytes whose digest is made from its name. */
export const pullable = (name: string, total: number): PullableModel => ({
  name,
  family: 'test',
  parameterSize: '1B',
  quantization: 'Q4',
  sizeBytes: total,
  capabilities: ['completion'],
  layers: [{ digest: `sha256:${digestOf(name)}`, total }],
});
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function tagEntry(m: FakeModel) {
  return {
    name: m.name,
    model: m.name,
    modified_at: '2025-10-01T12:00:00.000000+00:00',
    size: m.sizeBytes,
    digest: digestOf(m.name),
    details: { parent_model: '', format: 'gguf', family: m.family, families: [m.family], parameter_size: m.parameterSize, quantization_level: m.quantization },
  };
}

/** Deterministic unit-length vector for a text. */
function embedding(text: string, dims: number): number[] {
  const seed = createHash('sha256').update(text).digest();
  const v = Array.from({ length: dims }, (_, i) => (seed[i % seed.length]! - 127.5) / 127.5 + Math.sin(i));
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export interface ToolDef {
  type?: string;
  function?: { name?: string; description?: string; parameters?: { properties?: Record<string, { type?: string }>; required?: string[] } };
}

/** Words that name what a tool is about, from its function name, with the words people use for them. */
const GENERIC = new Set(['search', 'lookup', 'find', 'get', 'tool', 'query']);
const SUBJECT_WORDS: Record<string, string[]> = {
  archive: ['encyclopedia', 'encyclopaedia', 'wikipedia', 'offline'],
  reader: ['saved', 'bookmark', 'read-later'],
  // the memory module's remember tool: "remember that …", "don't forget: …", "memorise …"
  remember: ['forget', 'memori'],
};
export function toolSubjects(tool: ToolDef): string[] {
  const parts = (tool.function?.name ?? '').toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 3 && !GENERIC.has(w));
  return parts.flatMap((p) => [p, ...(SUBJECT_WORDS[p] ?? [])]);
}
/** The first tool whose subject the question names (a word starting with a subject word), or undefined. */
export function toolNamedBy(question: string, tools: ToolDef[]): ToolDef | undefined {
  const words = question.toLowerCase().match(/[a-z][a-z-]*/g) ?? [];
  return tools.find((t) => toolSubjects(t).some((subject) => words.some((w) => w.startsWith(subject))));
}

const QUESTION_WORDS = new Set(
  'what whats which who whom how why when where does do did is are was were the a an of in on to for from about say says tell me my our us i you please can could would should there any some and or with this that it its find look up search'.split(' '),
);

/**
 * The search words a model would pull out of a question: the question without its question words
 * and the tool's subject ("What does the encyclopedia say about heat pumps?" → "heat pumps").
 */
export function queryFrom(question: string, tool: ToolDef): string {
  const subjects = toolSubjects(tool);
  const words = (question.toLowerCase().match(/[a-z0-9][a-z0-9'-]*/g) ?? []).filter((w) => !QUESTION_WORDS.has(w) && !subjects.some((s) => w.startsWith(s)));
  return words.join(' ') || 'example';
}

/** The fact a question asks to be kept, as a model would word it: "Don't forget that we are vegetarian!" → "we are vegetarian". */
export function factFrom(question: string): string {
  return question
    .trim()
    .replace(/^(?:please\s+)?(?:remember|don['’]?t\s+forget|do\s+not\s+forget|memori[sz]e)(?:\s+that|\s*:)?\s*/i, '')
    .replace(/[\s.!]+$/, '');
}

/** Arguments as a model would fill them: a string named like a query gets the question's search words, one named fact the fact to keep. */
function exampleArguments(tool: ToolDef, question: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(tool.function?.parameters?.properties ?? {})) {
    if (prop.type === 'number' || prop.type === 'integer') args[key] = 1;
    else if (prop.type === 'boolean') args[key] = true;
    else if (key === 'fact') args[key] = factFrom(question);
    else args[key] = /query|q|search|text|question/i.test(key) ? queryFrom(question, tool) : 'example';
  }
  return args;
}

export async function startFakeModelRuntime(opts: FakeModelRuntimeOptions = {}): Promise<FakeModelRuntime> {
  let chunkDelayMs = opts.chunkDelayMs ?? 5;
  const pullable = opts.pullable ?? [PULLABLE_MODEL];
  const models: FakeModel[] = [...(opts.models ?? [CHAT_MODEL, VISION_MODEL, EMBEDDING_MODEL])];
  const loaded = new Map<string, number>(); // model name -> loaded at
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let mode: FakeMode = 'ok';
  let modeOnly: string | undefined;
  let slowMs = 1000;
  let port = 0;
  // the mode one request sees: the set one, or 'ok' when it is limited to another path
  const requestMode = new AsyncLocalStorage<FakeMode>();
  const modeNow = (): FakeMode => requestMode.getStore() ?? mode;

  const find = (name: unknown) => (typeof name === 'string' ? state.models.find((m) => normalize(m.name) === normalize(name)) : undefined);

  function json(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    if (modeNow() === 'cut') {
      // Promise the whole body, send half of it, then drop the connection.
      res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
      res.write(text.slice(0, Math.floor(text.length / 2)));
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(text);
  }

  /** Streams NDJSON lines; honours 'cut' (drop mid-way) and 'error-line' (an {error} line mid-way). */
  async function stream(res: ServerResponse, lines: unknown[]): Promise<void> {
    const m = modeNow();
    res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
    res.flushHeaders();
    if (m === 'slow-first-token') await sleep(slowMs);
    const half = Math.max(1, Math.floor(lines.length / 2));
    for (let i = 0; i < lines.length; i++) {
      if (res.destroyed) return;
      if (i === half && m === 'cut') {
        res.socket?.destroy();
        return;
      }
      if (i === half && m === 'error-line') {
        res.end(`${JSON.stringify({ error: 'an error was encountered while running the model: unexpected EOF' })}\n`);
        return;
      }
      if (i === half && m === 'garbage-line') {
        res.end('<html>502 Bad Gateway</html>\n');
        return;
      }
      res.write(`${JSON.stringify(lines[i])}\n`);
      if (chunkDelayMs > 0) await sleep(chunkDelayMs);
    }
    res.end();
  }

  const words = (text: string) => text.match(/\S+\s*/g) ?? [text];
  const durations = (promptChars: number, evalCount: number) => ({
    total_duration: 1_234_567_890,
    load_duration: 12_345_678,
    prompt_eval_count: Math.max(1, Math.round(promptChars / 4)),
    prompt_eval_duration: 23_456_789,
    eval_count: evalCount,
    eval_duration: 345_678_901,
  });

  async function chat(req: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const model = find(req.model);
    if (!model) return json(res, 404, NOT_FOUND(String(req.model)));
    if (!model.capabilities.includes('completion')) return json(res, 400, { error: `"${model.name}" does not support chat` });
    if (!Array.isArray(req.messages)) return json(res, 400, { error: 'messages is required' });
    const messages = req.messages as FakeChatRequest['messages'];
    if (messages.some((m) => Array.isArray(m.images) && m.images.length > 0) && !model.capabilities.includes('vision')) {
      return json(res, 400, { error: `"${model.name}" does not support images` });
    }
    loaded.set(model.name, Date.now());
    const created_at = new Date().toISOString();
    const last = messages[messages.length - 1];
    const tools = Array.isArray(req.tools) ? (req.tools as ToolDef[]) : [];
    const promptChars = messages.reduce((n, m) => n + String(m.content ?? '').length, 0);
    const stream_ = req.stream !== false;

    // A model with tools asked about a tool's subject answers with a tool call (or the calls a test
    // scripted); after the tool's answer comes back it replies in words.
    const scripted = state.toolScript?.(req as unknown as FakeChatRequest) ?? null;
    const named = tools.length > 0 && model.capabilities.includes('tools') && last?.role === 'user' ? toolNamedBy(String(last.content ?? ''), tools) : undefined;
    if (scripted || named) {
      const calls = scripted ?? [{ function: { name: named!.function?.name ?? 'unknown', arguments: exampleArguments(named!, String(last?.content ?? '')) } }];
      const message = { role: 'assistant', content: '', tool_calls: calls };
      const final = { model: model.name, created_at, message, done: true, done_reason: 'stop', ...durations(promptChars, 12) };
      if (!stream_) return json(res, 200, final);
      return stream(res, [{ model: model.name, created_at, message, done: false }, { ...final, message: { role: 'assistant', content: '' } }]);
    }
    let reply = CANNED_REPLY;
    const prompt = messages.map((m) => String(m.content ?? '')).join('\n');
    const fields = typeof req.format === 'object' && req.format !== null ? ((req.format as { properties?: Record<string, unknown> }).properties ?? {}) : {};
    if (last?.role === 'tool') reply = `Here is what the tool said: ${String(last.content ?? '')}`;
    else if (last?.images?.length) {
      if (/transcribe/i.test(prompt)) reply = state.visionTranscript;
      else if (/describe/i.test(prompt)) reply = state.visionDescription;
      else reply = 'The picture shows a small test image.';
    }
    if (req.format !== undefined) reply = 'serialNumber' in fields ? JSON.stringify(fakeReconcile(prompt)) : JSON.stringify({ answer: reply });
    if (typeof req.format === 'object' && req.format !== null && messages.some((m) => m.images?.length)) {
      const ocr = /<ocr>\n([\s\S]*?)\n<\/ocr>/.exec(prompt)?.[1] ?? null;
      // break-once: the first ask breaks the schema; the retry (which carries that answer back) complies
      const breaks = state.schemaMode === 'break-always' || (state.schemaMode === 'break-once' && !messages.some((m) => m.role === 'assistant'));
      reply = breaks
        ? SCHEMA_BREAKING_REPLY
        : JSON.stringify(fakeSchemaAnswer(req.format as Schema, { ocr, description: state.visionDescription, objects: state.visionObjects, transcript: state.visionTranscript }));
    }
    if (req.format !== undefined && state.garbageJsonReplies > 0) {
      state.garbageJsonReplies -= 1;
      reply = 'Sure! Here is the JSON you asked for: {"brand": "NORD';
    }
    if (state.chatReply !== null && last?.role !== 'tool') {
      reply = typeof state.chatReply === 'function' ? state.chatReply(req as unknown as FakeChatRequest) : state.chatReply;
    }
    const final = { model: model.name, created_at, done: true, done_reason: 'stop', ...durations(promptChars, words(reply).length) };
    if (!stream_) return json(res, 200, { ...final, message: { role: 'assistant', content: reply } });
    const parts = req.format !== undefined ? (reply.match(/[\s\S]{1,8}/g) ?? [reply]) : words(reply);
    return stream(res, [
      ...parts.map((p) => ({ model: model.name, created_at, message: { role: 'assistant', content: p }, done: false })),
      { ...final, message: { role: 'assistant', content: '' } },
    ]);
  }

  async function generate(req: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const model = find(req.model);
    if (!model) return json(res, 404, NOT_FOUND(String(req.model)));
    if (!model.capabilities.includes('completion')) return json(res, 400, { error: `"${model.name}" does not support generate` });
    loaded.set(model.name, Date.now());
    const created_at = new Date().toISOString();
    // An empty prompt only loads the model (Ollama's documented preload).
    if (typeof req.prompt !== 'string' || req.prompt === '') {
      return json(res, 200, { model: model.name, created_at, response: '', done: true, done_reason: 'load' });
    }
    const reply = req.format !== undefined ? JSON.stringify({ answer: CANNED_REPLY }) : CANNED_REPLY;
    const final = { model: model.name, created_at, response: '', done: true, done_reason: 'stop', context: [1, 2, 3], ...durations(req.prompt.length, words(reply).length) };
    if (req.stream === false) return json(res, 200, { ...final, response: reply });
    return stream(res, [...words(reply).map((w) => ({ model: model.name, created_at, response: w, done: false })), final]);
  }

  function embed(req: Record<string, unknown>, res: ServerResponse): void {
    const model = find(req.model);
    if (!model) return json(res, 404, NOT_FOUND(String(req.model)));
    const input = req.input;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((x) => typeof x === 'string') ? (input as string[]) : null;
    if (!texts) return json(res, 400, { error: 'invalid input type' });
    loaded.set(model.name, Date.now());
    const dims = model.embeddingLength ?? 4096;
    json(res, 200, {
      model: model.name,
      embeddings: texts.map((t) => embedding(t, dims)),
      total_duration: 14_143_917,
      load_duration: 1_019_500,
      prompt_eval_count: texts.reduce((n, t) => n + Math.max(1, Math.round(t.length / 4)), 0),
    });
  }

  async function pull(req: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const name = typeof req.model === 'string' ? req.model : typeof req.name === 'string' ? req.name : '';
    const wanted = pullable.find((m) => normalize(m.name) === normalize(name));
    const already = find(name);
    const streaming = req.stream !== false;
    if (!wanted && !already) {
      const error = { error: 'pull model manifest: file does not exist' };
      if (!streaming) return json(res, 500, error);
      return stream(res, [{ status: 'pulling manifest' }, error]);
    }
    const layers = wanted?.layers ?? [{ digest: `sha256:${digestOf(name)}`, total: already!.sizeBytes }];
    const lines: unknown[] = [{ status: 'pulling manifest' }];
    for (const layer of layers) {
      const status = `pulling ${layer.digest.replace('sha256:', '').slice(0, 12)}`;
      for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
        lines.push({ status, digest: layer.digest, total: layer.total, completed: Math.round(layer.total * fraction) });
      }
    }
    lines.push({ status: 'verifying sha256 digest' }, { status: 'writing manifest' }, { status: 'success' });
    const install = () => {
      if (wanted && !find(wanted.name)) {
        const { layers: _l, ...model } = wanted;
        state.models.push(model);
      }
    };
    if (!streaming) {
      await sleep(chunkDelayMs);
      if (modeNow() === 'error-line') return json(res, 500, { error: 'max retries exceeded: unexpected EOF' });
      install();
      return json(res, 200, { status: 'success' });
    }
    await stream(res, lines);
    if (['ok', 'slow', 'slow-first-token'].includes(modeNow())) install();
  }

  function show(req: Record<string, unknown>, res: ServerResponse): void {
    const name = req.model ?? req.name;
    const model = find(name);
    if (!model) return json(res, 404, NOT_FOUND(String(name)));
    json(res, 200, {
      license: 'Fake license',
      modelfile: `FROM ${model.name}\n`,
      parameters: 'stop "<|eot_id|>"',
      template: '{{ .Prompt }}',
      details: tagEntry(model).details,
      model_info: {
        'general.architecture': model.family,
        'general.parameter_count': 3_212_749_888,
        [`${model.family}.context_length`]: model.contextLength ?? 131_072,
        ...(model.embeddingLength ? { [`${model.family}.embedding_length`]: model.embeddingLength } : {}),
      },
      capabilities: model.capabilities,
      modified_at: '2025-10-01T12:00:00.000000+00:00',
    });
  }

  async function route(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    let body: Record<string, unknown> = {};
    if (method !== 'GET' && method !== 'HEAD') {
      try {
        const parsed: unknown = raw === '' ? {} : JSON.parse(raw);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        body = parsed as Record<string, unknown>;
      } catch {
        return json(res, 400, { error: 'invalid character looking for beginning of value' });
      }
    }
    const key = `${method} ${path}`;
    if (modeNow() === 'error-line' && !['POST /api/chat', 'POST /api/generate', 'POST /api/pull'].includes(key)) {
      return json(res, 500, { error: 'llama runner process has terminated: exit status 2' });
    }
    switch (key) {
      case 'GET /':
      case 'HEAD /':
        res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Ollama is running');
        return;
      case 'GET /api/version':
        return json(res, 200, { version: FAKE_VERSION });
      case 'GET /api/tags':
        return json(res, 200, { models: state.models.map(tagEntry) });
      case 'GET /api/ps':
        return json(res, 200, {
          models: state.models
            .filter((m) => loaded.has(m.name))
            .map((m) => ({ ...tagEntry(m), expires_at: new Date(loaded.get(m.name)! + 5 * 60_000).toISOString(), size_vram: m.sizeBytes, context_length: 4096 })),
        });
      case 'POST /api/show':
        return show(body, res);
      case 'POST /api/chat':
        return chat(body, res);
      case 'POST /api/generate':
        return generate(body, res);
      case 'POST /api/embed':
        return embed(body, res);
      case 'POST /api/pull':
        return pull(body, res);
      case 'DELETE /api/delete': {
        const name = body.model ?? body.name;
        const model = find(name);
        if (!model) return json(res, 404, NOT_FOUND(String(name)));
        state.models = state.models.filter((m) => m !== model);
        loaded.delete(model.name);
        res.writeHead(200);
        res.end();
        return;
      }
      default:
        // Ollama's router answers unknown paths with a plain-text 404.
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('404 page not found');
    }
  }

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const m: FakeMode = modeOnly !== undefined && path !== modeOnly ? 'ok' : mode;
    void requestMode.run(m, async () => {
      const raw = await readBody(req);
      let body: unknown;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, at: Date.now(), aborted: false };
      requests.push(recorded);
      res.on('close', () => {
        if (!res.writableFinished) recorded.aborted = true;
      });
      if (m === 'slow') await sleep(slowMs);
      if (res.destroyed) return;
      if (m === 'garbage') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('<html><body>502 Bad Gateway</body></html> not json {');
        return;
      }
      await route(req, res, raw);
    }).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });

  await listen(0);

  const state: FakeModelRuntime = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    get mode() {
      return mode;
    },
    get chunkDelayMs() {
      return chunkDelayMs;
    },
    set chunkDelayMs(ms: number) {
      chunkDelayMs = ms;
    },
    models,
    requests,
    chatReply: opts.chatReply ?? null,
    toolScript: null,
    visionTranscript: CANNED_TRANSCRIPT,
    visionDescription: CANNED_DESCRIPTION,
    garbageJsonReplies: 0,
    visionObjects: ['washing machine'],
    schemaMode: 'follow' as SchemaMode,
    async setMode(next, o = {}) {
      if (o.slowMs !== undefined) slowMs = o.slowMs;
      modeOnly = o.only;
      if (next === 'down' && mode !== 'down') await stop();
      if (next !== 'down' && mode === 'down') await listen(port);
      mode = next;
    },
    async close() {
      await stop();
    },
  };
  return state;
}
