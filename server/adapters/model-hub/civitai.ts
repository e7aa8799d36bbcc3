// A civitai-style model hub (MODEL_HUB_URL, default https://civitai.com) over its public REST API:
// GET /api/v1/models?query=…&types=LORA[&baseModels=…]&limit=… (search) and
// GET /api/v1/model-versions/:id (one version, for an import). Files are downloaded from a
// version's downloadUrl (/api/download/models/:id, which redirects to the hub's file store) by the
// durable download queue, not here. The API key, when the household has one, is sent only as an
// Authorization header from the server (never in a URL, so it reaches no log or job row). Every
// request goes through the one SSRF guard, has a time budget and a size cap; anything but a 200
// with the JSON shape is a ModelHubError with a sentence.
import { z } from 'zod';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { fetchCappedJson, type CappedJsonFailure } from '../web/fetch-capped.js';

export type ModelHubFailure = 'unreachable' | 'timeout' | 'unauthorized' | 'not_found' | 'http_error' | 'bad_response' | 'too_large' | 'blocked';

export class ModelHubError extends Error {
  constructor(
    readonly failure: ModelHubFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelHubError';
  }

  /** A refusal by design, logged as its message without a stack (platform/logger.ts). */
  readonly expected = true;
}

/** One model version with its primary file: what a search lists and an import downloads. */
export interface HubVersion {
  /** The version's id on the hub (what an import asks for). */
  externalId: string;
  modelName: string;
  versionName: string;
  description: string | null;
  /** The hub's own name of the base model ("SDXL 1.0", "SD 1.5", "Flux.1 D", "Pony"…). */
  baseModel: string | null;
  triggerWords: string[];
  fileName: string;
  /** Exact size when the hub's sizeKB gives whole bytes, else null. */
  bytes: number | null;
  /** Lower-case hex, when the hub lists one. */
  sha256: string | null;
  downloadUrl: string;
  /** The hub marks the model as not safe for work. */
  nsfw: boolean;
}

export interface ModelHubClient {
  readonly baseUrl: string;
  /** LoRA models matching `query` (optionally only these base models), newest version of each first. */
  search(query: string, opts?: { baseModels?: string[]; apiKey?: string | null; limit?: number; signal?: AbortSignal }): Promise<HubVersion[]>;
  /** One version by id; ModelHubError('not_found') when the hub has none. */
  version(externalId: string, opts?: { apiKey?: string | null; signal?: AbortSignal }): Promise<HubVersion>;
}

export interface ModelHubClientOptions {
  baseUrl: string;
  guard: SsrfGuard;
  /** Whole request, headers and body (default 15 s). */
  timeoutMs?: number;
  /** The JSON answer's size cap (default 4 MB). */
  maxBytes?: number;
}

const optText = z.string().nullish().catch(null);
const HubFile = z.object({
  name: z.string().min(1),
  sizeKB: z.number().nonnegative().nullish().catch(null),
  type: optText,
  primary: z.boolean().nullish().catch(null),
  downloadUrl: optText,
  hashes: z.record(z.string(), z.string()).nullish().catch(null),
});
const HubVersionJson = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  name: optText,
  baseModel: optText,
  trainedWords: z.array(z.string()).nullish().catch(null),
  downloadUrl: optText,
  files: z.array(z.unknown()).nullish().catch(null),
  model: z.object({ name: optText, nsfw: z.boolean().nullish().catch(null) }).nullish().catch(null),
});
const HubModelJson = z.object({
  id: z.union([z.number().int(), z.string()]),
  name: z.string(),
  description: optText,
  nsfw: z.boolean().nullish().catch(null),
  modelVersions: z.array(z.unknown()).nullish().catch(null),
});
const SearchJson = z.object({ items: z.array(z.unknown()) });

/** Descriptions are HTML on the hub: kept as plain text, short. */
export function plainText(html: string | null | undefined, max = 300): string | null {
  if (!html) return null;
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function toVersion(raw: unknown, model: { name: string; description: string | null; nsfw: boolean }, base: string): HubVersion | null {
  const v = HubVersionJson.safeParse(raw);
  if (!v.success) return null;
  const files = (v.data.files ?? []).map((f) => HubFile.safeParse(f)).flatMap((f) => (f.success ? [f.data] : []));
  const file = files.find((f) => f.primary) ?? files.find((f) => !f.type || f.type === 'Model') ?? files[0];
  if (!file) return null;
  const downloadUrl = file.downloadUrl ?? v.data.downloadUrl;
  if (!downloadUrl) return null;
  let url: string;
  try {
    url = new URL(downloadUrl, base).href;
  } catch {
    return null;
  }
  const exact = file.sizeKB != null ? file.sizeKB * 1024 : null;
  const sha = file.hashes ? Object.entries(file.hashes).find(([k]) => k.toLowerCase() === 'sha256')?.[1] : undefined;
  return {
    externalId: String(v.data.id),
    modelName: v.data.model?.name ?? model.name,
    versionName: v.data.name ?? '',
    description: model.description,
    baseModel: v.data.baseModel ?? null,
    triggerWords: (v.data.trainedWords ?? []).map((w) => w.trim()).filter(Boolean),
    fileName: file.name,
    bytes: exact != null && Number.isInteger(exact) ? exact : null,
    sha256: sha && /^[a-f0-9]{64}$/i.test(sha) ? sha.toLowerCase() : null,
    downloadUrl: url,
    nsfw: model.nsfw || v.data.model?.nsfw === true,
  };
}

export function createModelHubClient(opts: ModelHubClientOptions): ModelHubClient {
  const base = new URL(opts.baseUrl);
  base.pathname = base.pathname.replace(/\/+$/, '');
  base.search = '';
  base.hash = '';
  const baseUrl = base.href.replace(/\/$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBytes = opts.maxBytes ?? 4 * 1024 * 1024;

  const failure = (kind: CappedJsonFailure, detail: string): ModelHubError => {
    switch (kind) {
      case 'too_large':
        return new ModelHubError('too_large', 'The model hub sent an answer too large to read.');
      case 'timeout':
        return new ModelHubError('timeout', `The model hub did not answer within ${Math.round(timeoutMs / 1000)} s. Try again in a little while.`);
      case 'blocked':
        return new ModelHubError('blocked', `The model hub's address was refused: ${detail}`);
      case 'bad_response':
        return new ModelHubError('bad_response', 'The model hub sent an answer Hearth could not read. Try again in a little while.');
      case 'unreachable':
        return new ModelHubError('unreachable', 'The model hub could not be reached. Check the internet connection and try again.');
    }
  };

  function getJson(url: URL, apiKey: string | null | undefined, outer: AbortSignal | undefined): Promise<unknown> {
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    const checkStatus = (status: number) => {
      if (status === 401 || status === 403) {
        throw new ModelHubError(
          'unauthorized',
          apiKey ? 'The model hub did not accept the saved API key. Check the key on the hub and save it again.' : 'The model hub asks for an API key for this. Add one under the model hub key and try again.',
          status,
        );
      }
      if (status === 404) throw new ModelHubError('not_found', 'The model hub has no such model.', 404);
      if (status !== 200) throw new ModelHubError('http_error', `The model hub answered with an error (${status}). Try again in a little while.`, status);
    };
    return fetchCappedJson(opts.guard, url.href, { maxBytes, timeoutMs, headers, maxRedirects: 3, checkStatus, fail: failure, ...(outer ? { signal: outer } : {}) });
  }

  async function search(query: string, o: { baseModels?: string[]; apiKey?: string | null; limit?: number; signal?: AbortSignal } = {}): Promise<HubVersion[]> {
    const url = new URL(`${baseUrl}/api/v1/models`);
    url.searchParams.set('query', query);
    url.searchParams.set('types', 'LORA');
    url.searchParams.set('limit', String(o.limit ?? 20));
    for (const b of o.baseModels ?? []) url.searchParams.append('baseModels', b);
    const parsed = SearchJson.safeParse(await getJson(url, o.apiKey, o.signal));
    if (!parsed.success) throw new ModelHubError('bad_response', 'The model hub sent an answer Hearth could not read. Try again in a little while.');
    const out: HubVersion[] = [];
    for (const raw of parsed.data.items) {
      const m = HubModelJson.safeParse(raw);
      if (!m.success) continue;
      const model = { name: m.data.name, description: plainText(m.data.description), nsfw: m.data.nsfw === true };
      const wanted = o.baseModels?.length ? new Set(o.baseModels) : null;
      // the newest version (listed first) that fits the filter
      const version = (m.data.modelVersions ?? []).map((v) => toVersion(v, model, baseUrl)).find((v) => v && (!wanted || (v.baseModel && wanted.has(v.baseModel))));
      if (version) out.push(version);
    }
    return out;
  }

  async function version(externalId: string, o: { apiKey?: string | null; signal?: AbortSignal } = {}): Promise<HubVersion> {
    if (!/^\d{1,18}$/.test(externalId)) throw new ModelHubError('not_found', 'The model hub has no such model.');
    const raw = await getJson(new URL(`${baseUrl}/api/v1/model-versions/${externalId}`), o.apiKey, o.signal);
    const model = HubVersionJson.safeParse(raw);
    const v = toVersion(raw, { name: model.success ? (model.data.model?.name ?? '') : '', description: null, nsfw: false }, baseUrl);
    if (!v) throw new ModelHubError('bad_response', 'The model hub sent an answer Hearth could not read. Try again in a little while.');
    return v;
  }

  return { baseUrl, search, version };
}
