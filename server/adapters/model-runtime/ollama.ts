// The model runtime (Ollama) over HTTP. Upstream JSON is untrusted: every answer is parsed with
// zod, and every failure (down, slow, garbage, HTTP error) becomes a ModelRuntimeError.
import { z } from 'zod';
import { undici } from '../../platform/lazy.js';

export type FetchLike = (input: string, init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<{
  ok: boolean;
  status: number;
  text(): Promise<string>;
}>;

export type ModelRuntimeFailure = 'unreachable' | 'timeout' | 'bad_response' | 'http_error' | 'pull_failed' | 'cut_off';

export class ModelRuntimeError extends Error {
  constructor(
    readonly failure: ModelRuntimeFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelRuntimeError';
  }
}

const VersionResponse = z.object({ version: z.string() });
const TagsResponse = z.object({
  models: z.array(
    z.object({
      name: z.string(),
      model: z.string().optional(),
      size: z.number().optional(),
      digest: z.string().optional(),
      modified_at: z.string().optional(),
      details: z.object({ family: z.string().optional(), parameter_size: z.string().optional(), quantization_level: z.string().optional() }).partial().optional(),
    }),
  ),
});

export interface RuntimeModel {
  name: string;
  sizeBytes: number | null;
  family: string | null;
  parameterSize: string | null;
}

/** What POST /api/show tells about one model. */
export interface ModelDetails {
  name: string;
  /** Ollama's words: completion, tools, vision, embedding, thinking, insert… (empty on old runtimes). */
  capabilities: string[];
  /** The model's trained context window in tokens (`<arch>.context_length`), null when not given. */
  contextLength: number | null;
  family: string | null;
  parameterSize: string | null;
}

export interface PullProgress {
  status: string;
  completed: number;
  total: number;
}

export interface ModelRuntimeClient {
  readonly baseUrl: string;
  version(): Promise<string>;
  listModels(): Promise<RuntimeModel[]>;
  /** One model's details and capabilities (POST /api/show); http_error 404 for a model it does not have. */
  show(model: string): Promise<ModelDetails>;
  /** Pulls a model, reporting byte progress summed over its layers; resolves on "success". */
  pull(model: string, opts: { signal?: AbortSignal; onProgress?: (p: PullProgress) => void; stallTimeoutMs?: number }): Promise<void>;
  /** Deletes a model; a model that is not there counts as deleted. */
  deleteModel(model: string): Promise<void>;
  /**
   * One chat turn (POST /api/chat, streamed NDJSON collected into one message). Fails with
   * unreachable, timeout (no answer or not finished within timeoutMs), http_error (4xx/5xx, e.g.
   * an unknown model), bad_response (a line that is not Ollama's JSON) or cut_off (the stream
   * stopped before its done line, or an {error} line mid-answer). The caller's signal aborts.
   */
  chat(req: ChatRequest): Promise<ChatResult>;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  images?: string[];
  /** On an assistant message: the tool calls it made (sent back so the model sees its own calls). */
  tool_calls?: ToolCall[];
  /** On a tool message: which tool answered. */
  tool_name?: string;
}

/** A tool the model may call (Ollama's `tools` entry): a function with a JSON schema for its arguments. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A call the model asked for. The arguments are untrusted: check them against the tool's schema. */
export interface ToolCall {
  function: { name: string; arguments: Record<string, unknown> };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** 'json' or a JSON schema the reply must follow (structured outputs). */
  format?: 'json' | Record<string, unknown>;
  /** Model options (temperature, num_ctx, ...). */
  options?: Record<string, unknown>;
  /** Tools offered to the model; its answer may then be tool calls instead of (or besides) text. */
  tools?: ToolSpec[];
  signal?: AbortSignal;
  /** Deadline for the whole answer; default 120 s. */
  timeoutMs?: number;
  /** Called with each streamed piece of the reply. */
  onDelta?: (text: string) => void;
}

export interface ChatResult {
  content: string;
  /** The tool calls the model made in this turn, in order (empty when it answered in words). */
  toolCalls: ToolCall[];
  /** "stop", "length" (cut by the token limit), ... */
  doneReason: string | null;
  promptTokens: number | null;
  outputTokens: number | null;
  /** Ollama's own timing of the answer (eval_duration, nanoseconds): with outputTokens, its tokens a second. */
  evalDurationNs?: number | null;
  /** Loading the model into memory (load_duration, nanoseconds). */
  loadDurationNs?: number | null;
}

const ShowResponse = z.object({
  capabilities: z.array(z.string()).optional(),
  details: z.object({ family: z.string().optional(), parameter_size: z.string().optional() }).partial().optional(),
  model_info: z.record(z.string(), z.unknown()).optional(),
});

const ToolCallLine = z.object({ function: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).default({}) }) });

const ChatLine = z.object({
  message: z.object({ role: z.string().optional(), content: z.string().optional(), tool_calls: z.array(ToolCallLine).optional() }).optional(),
  done: z.boolean().optional(),
  done_reason: z.string().optional(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
  eval_duration: z.number().optional(),
  load_duration: z.number().optional(),
  error: z.string().optional(),
});

const PullLine = z.object({
  status: z.string().optional(),
  digest: z.string().optional(),
  total: z.number().optional(),
  completed: z.number().optional(),
  error: z.string().optional(),
});

/**
 * Calls `onLine` for each line of a streamed NDJSON body, the last one even without a newline (and
 * with '' when there is none left). UTF-8 is decoded across chunk boundaries: a character split
 * between two network chunks arrives whole, not as two replacement characters.
 */
async function forEachLine(body: AsyncIterable<unknown>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk as Uint8Array, { stream: true });
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      onLine(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  }
  onLine(buffered + decoder.decode());
}

export interface OllamaClientOptions {
  baseUrl: string;
  fetch?: FetchLike;
  timeoutMs?: number;
}

export function createOllamaClient(opts: OllamaClientOptions): ModelRuntimeClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  // Node's own fetch for the small JSON calls (the boot's runtime check among them): undici's
  // package is loaded only by the first streamed call (chat, pull)
  const doFetch: FetchLike = opts.fetch ?? (globalThis.fetch as unknown as FetchLike);
  const timeoutMs = opts.timeoutMs ?? 5000;

  async function getJson<S extends z.ZodType>(path: string, schema: S, post?: unknown): Promise<z.infer<S>> {
    const isTimeout = (err: unknown) => ['TimeoutError', 'AbortError'].includes((err as Error).name);
    const timeout = () => new ModelRuntimeError('timeout', `The model runtime did not answer within ${timeoutMs / 1000} s.`);
    let res: Awaited<ReturnType<FetchLike>>;
    let text: string;
    try {
      res = await doFetch(
        `${baseUrl}${path}`,
        post === undefined
          ? { signal: AbortSignal.timeout(timeoutMs) }
          : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(post), signal: AbortSignal.timeout(timeoutMs) },
      );
    } catch (err) {
      if (isTimeout(err)) throw timeout();
      throw new ModelRuntimeError('unreachable', `The model runtime is not reachable at ${baseUrl}.`);
    }
    try {
      text = await res.text();
    } catch (err) {
      // it answered, then the connection dropped: a crash mid-answer, not an unreachable runtime
      if (isTimeout(err)) throw timeout();
      throw new ModelRuntimeError('bad_response', 'The model runtime stopped in the middle of its answer.');
    }
    if (!res.ok) {
      let detail = '';
      try {
        detail = z.object({ error: z.string() }).parse(JSON.parse(text)).error;
      } catch {
        // not an Ollama error body
      }
      throw new ModelRuntimeError('http_error', `The model runtime answered ${res.status}${detail ? `: ${detail}` : ''}.`, res.status);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ModelRuntimeError('bad_response', 'The model runtime sent an answer that is not JSON.');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ModelRuntimeError('bad_response', 'The model runtime sent an answer of an unexpected shape.');
    return parsed.data;
  }

  return {
    baseUrl,
    async version() {
      return (await getJson('/api/version', VersionResponse)).version;
    },
    async listModels() {
      const tags = await getJson('/api/tags', TagsResponse);
      return tags.models.map((m) => ({
        name: m.name,
        sizeBytes: m.size ?? null,
        family: m.details?.family ?? null,
        parameterSize: m.details?.parameter_size ?? null,
      }));
    },
    async show(model) {
      const shown = await getJson('/api/show', ShowResponse, { model });
      const info = shown.model_info ?? {};
      const contextKey = Object.keys(info).find((k) => k.endsWith('.context_length'));
      const contextLength = contextKey !== undefined && typeof info[contextKey] === 'number' ? (info[contextKey] as number) : null;
      return {
        name: model,
        capabilities: shown.capabilities ?? [],
        contextLength,
        family: shown.details?.family ?? null,
        parameterSize: shown.details?.parameter_size ?? null,
      };
    },
    async deleteModel(model) {
      let res;
      try {
        res = await doFetch(`${baseUrl}/api/delete`, {
          method: 'DELETE',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch {
        throw new ModelRuntimeError('unreachable', `The model runtime is not reachable at ${baseUrl}.`);
      }
      if (!res.ok && res.status !== 404) throw new ModelRuntimeError('http_error', `The model runtime answered ${res.status} when deleting ${model}.`, res.status);
    },
    async chat({ model, messages, format, options, tools, signal: callerSignal, timeoutMs: chatTimeoutMs = 120_000, onDelta }) {
      const deadline = AbortSignal.timeout(chatTimeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, deadline]) : deadline;
      const timeout = () => new ModelRuntimeError('timeout', `The model did not finish its answer within ${Math.round(chatTimeoutMs / 1000)} s.`);
      const callerAborted = () => callerSignal?.aborted === true;
      const isTimeout = (err: unknown) => deadline.aborted || ['HeadersTimeoutError', 'BodyTimeoutError'].includes((err as Error).name) || /timeout/i.test((err as { code?: string }).code ?? '');
      let res;
      try {
        res = await undici().request(`${baseUrl}/api/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            model,
            messages,
            stream: true,
            ...(format !== undefined ? { format } : {}),
            ...(options ? { options } : {}),
            ...(tools && tools.length > 0 ? { tools } : {}),
          }),
          signal,
          headersTimeout: chatTimeoutMs,
          bodyTimeout: chatTimeoutMs,
        });
      } catch (err) {
        if (callerAborted()) throw callerSignal!.reason ?? err;
        if (isTimeout(err)) throw timeout();
        throw new ModelRuntimeError('unreachable', `The model runtime is not reachable at ${baseUrl}.`);
      }
      if (res.statusCode !== 200) {
        const text = await res.body.text().catch(() => '');
        let detail = '';
        try {
          detail = ChatLine.parse(JSON.parse(text)).error ?? '';
        } catch {
          // not an Ollama error body
        }
        throw new ModelRuntimeError('http_error', `The model runtime answered ${res.statusCode}${detail ? `: ${detail}` : ''}.`, res.statusCode);
      }
      let content = '';
      const toolCalls: ToolCall[] = [];
      let final: z.infer<typeof ChatLine> | null = null;
      const handle = (line: string) => {
        if (!line.trim() || final) return;
        let parsed;
        try {
          parsed = ChatLine.parse(JSON.parse(line));
        } catch {
          throw new ModelRuntimeError('bad_response', 'The model runtime sent an answer that is not JSON.');
        }
        if (parsed.error) throw new ModelRuntimeError('cut_off', `The model stopped in the middle of its answer: ${parsed.error}`);
        for (const call of parsed.message?.tool_calls ?? []) toolCalls.push(call);
        const delta = parsed.message?.content ?? '';
        if (delta) {
          content += delta;
          onDelta?.(delta);
        }
        if (parsed.done) final = parsed;
      };
      try {
        await forEachLine(res.body, handle);
      } catch (err) {
        if (err instanceof ModelRuntimeError) throw err;
        if (callerAborted()) throw callerSignal!.reason ?? err;
        if (isTimeout(err)) throw timeout();
        throw new ModelRuntimeError('cut_off', 'The connection to the model runtime dropped in the middle of its answer.');
      }
      const done = final as z.infer<typeof ChatLine> | null;
      if (!done) throw new ModelRuntimeError('cut_off', 'The model runtime stopped before finishing its answer.');
      return { content, toolCalls, doneReason: done.done_reason ?? null, promptTokens: done.prompt_eval_count ?? null, outputTokens: done.eval_count ?? null, evalDurationNs: done.eval_duration ?? null, loadDurationNs: done.load_duration ?? null };
    },
    async pull(model, { signal, onProgress, stallTimeoutMs = 60_000 }) {
      let res;
      try {
        res = await undici().request(`${baseUrl}/api/pull`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model, stream: true }),
          signal,
          headersTimeout: stallTimeoutMs,
          bodyTimeout: stallTimeoutMs,
        });
      } catch (err) {
        if (signal?.aborted) throw signal.reason ?? err;
        throw new ModelRuntimeError('unreachable', `The model runtime is not reachable at ${baseUrl}.`);
      }
      if (res.statusCode !== 200) {
        const text = await res.body.text().catch(() => '');
        let detail = '';
        try {
          detail = PullLine.parse(JSON.parse(text)).error ?? '';
        } catch {
          // not JSON
        }
        throw new ModelRuntimeError('http_error', `The model runtime answered ${res.statusCode}${detail ? `: ${detail}` : ''}.`, res.statusCode);
      }
      const layers = new Map<string, { total: number; completed: number }>();
      let succeeded = false;
      const handle = (line: string) => {
        if (!line.trim()) return;
        let parsed;
        try {
          parsed = PullLine.parse(JSON.parse(line));
        } catch {
          throw new ModelRuntimeError('bad_response', 'The model runtime sent a progress line that is not JSON.');
        }
        if (parsed.error) throw new ModelRuntimeError('pull_failed', `Pulling ${model} failed: ${parsed.error}`);
        if (parsed.digest && parsed.total) layers.set(parsed.digest, { total: parsed.total, completed: parsed.completed ?? 0 });
        if (parsed.status === 'success') succeeded = true;
        let total = 0;
        let completed = 0;
        for (const l of layers.values()) {
          total += l.total;
          completed += l.completed;
        }
        onProgress?.({ status: parsed.status ?? '', total, completed });
      };
      try {
        await forEachLine(res.body, handle);
      } catch (err) {
        if (err instanceof ModelRuntimeError) throw err;
        if (signal?.aborted) throw signal.reason ?? err;
        throw new ModelRuntimeError('cut_off', `The connection to the model runtime dropped while pulling ${model}.`);
      }
      if (!succeeded) throw new ModelRuntimeError('cut_off', `The model runtime stopped before ${model} finished downloading.`);
    },
  };
}
