// The model runtime (Ollama) over HTTP. Upstream JSON is untrusted: every answer is parsed with
// zod, and every failure (down, slow, garbage, HTTP error) becomes a ModelRuntimeError.
import { fetch as undiciFetch } from 'undici';
import { z } from 'zod';

export type FetchLike = (input: string, init?: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal }) => Promise<{
  ok: boolean;
  status: number;
  text(): Promise<string>;
}>;

export type ModelRuntimeFailure = 'unreachable' | 'timeout' | 'bad_response' | 'http_error';

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

export interface ModelRuntimeClient {
  readonly baseUrl: string;
  version(): Promise<string>;
  listModels(): Promise<RuntimeModel[]>;
}

export interface OllamaClientOptions {
  baseUrl: string;
  fetch?: FetchLike;
  timeoutMs?: number;
}

export function createOllamaClient(opts: OllamaClientOptions): ModelRuntimeClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const doFetch: FetchLike = opts.fetch ?? (undiciFetch as unknown as FetchLike);
  const timeoutMs = opts.timeoutMs ?? 5000;

  async function getJson<S extends z.ZodType>(path: string, schema: S): Promise<z.infer<S>> {
    let res: Awaited<ReturnType<FetchLike>>;
    let text: string;
    try {
      res = await doFetch(`${baseUrl}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ModelRuntimeError('timeout', `The model runtime did not answer within ${timeoutMs / 1000} s.`);
      throw new ModelRuntimeError('unreachable', `The model runtime is not reachable at ${baseUrl}.`);
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
  };
}
