// The external model hub (civitai-style) for LoRAs, admin only: search, import and the hub's API
// key. An import looks the version up on the hub, hands the file to the durable download queue
// (host class model_hub; a dropped connection is retried and resumes from the .part file), and
// once the queue has the whole file moves it into the engine's loras folder and registers it as a
// LoRA (trigger words, base family, adult from the hub's nsfw flag, the hub's id). What an import
// still needs is kept in app settings, so a download that outlives its stream (the admin closed
// the page, the server restarted) is still registered when the queue finishes it
// (`onDownloaded`, wired to download.completed). The API key stays in app settings: sent to the
// hub as a header by the adapter and the queue's executor, never answered, never logged.
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { assertAdmin, type Actor } from '../../actor.js';
import { ModelHubError, type HubVersion, type ModelHubClient } from '../../adapters/model-hub/civitai.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { AppError, ConflictError, NotFoundError, ServiceUnavailableError, UnprocessableError, UpstreamError } from '../../errors.js';
import type { Logger } from '../../platform/logger.js';
import { sleep } from '../../platform/sleep.js';
import type { DownloadJob, JobProgress, NewJob } from '../downloads/schema.js';
import { resolveInside } from '../../platform/path-guard.js';
import { assertLoraFileName, checkLoraFile, isSafetensorsFileName } from './safetensors.js';
import { MAX_LORA_BYTES, type AdminLora, type BaseFamily as BaseFamilySchema, type HubImportEvents, type HubResult as HubResultSchema } from './schema.js';
import type { z } from 'zod';

export const SETTING_HUB_KEY = 'image_hub.api_key';
export const SETTING_HUB_PENDING = 'image_hub.pending';
/** Where the queue writes an imported LoRA, under DATA_DIR (one of the download folders). */
export const HUB_DOWNLOAD_FOLDER = 'models/loras';
const ITEM_PREFIX = 'hub:';

type BaseFamily = z.infer<typeof BaseFamilySchema>;
type HubResult = z.infer<typeof HubResultSchema>;

/** The hub's base model names for each family (the search filter). */
export const HUB_BASE_MODELS: Record<BaseFamily, string[]> = {
  sd15: ['SD 1.5', 'SD 1.5 LCM', 'SD 1.5 Hyper', 'SD 1.4'],
  sd2: ['SD 2.0', 'SD 2.0 768', 'SD 2.1', 'SD 2.1 768', 'SD 2.1 Unclip'],
  sdxl: ['SDXL 1.0', 'SDXL 0.9', 'SDXL 1.0 LCM', 'SDXL Lightning', 'SDXL Hyper', 'SDXL Turbo', 'Pony', 'Illustrious', 'NoobAI'],
  sd3: ['SD 3', 'SD 3.5', 'SD 3.5 Medium', 'SD 3.5 Large', 'SD 3.5 Large Turbo'],
  flux: ['Flux.1 D', 'Flux.1 S', 'Flux.1 Kontext', 'Flux.1 Krea'],
};

/** The family of a hub base model name, or null for one Hearth's pipelines do not know. */
export function baseFamilyOf(baseModel: string | null): BaseFamily | null {
  if (!baseModel) return null;
  for (const [family, names] of Object.entries(HUB_BASE_MODELS) as Array<[BaseFamily, string[]]>) if (names.includes(baseModel)) return family;
  const b = baseModel.toLowerCase();
  if (b.includes('flux')) return 'flux';
  if (b.includes('sdxl') || b.includes('pony') || b.includes('illustrious')) return 'sdxl';
  if (/sd ?3/.test(b)) return 'sd3';
  if (/sd ?2/.test(b)) return 'sd2';
  if (/sd ?1\.[45]/.test(b)) return 'sd15';
  return null;
}

/** A file name safe to keep in the loras folder: the hub's name without folders or odd characters (null unless .safetensors). */
export function loraFileName(hubName: string, externalId: string): string | null {
  const base = path.basename(hubName.replace(/\\/g, '/'));
  const ext = path.extname(base).toLowerCase();
  if (!isSafetensorsFileName(base)) return null;
  const stem = base
    .slice(0, -ext.length)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return `${stem || `lora-${externalId}`}${ext}`;
}

/** What registering an imported LoRA needs (the LoRA store fills in the rest with its defaults). */
export interface LoraRegistration {
  name: string;
  /** The file name in the engine's loras folder. */
  fileName: string;
  fileBytes: number | null;
  triggerTokens: string[];
  baseFamilies: BaseFamily[];
  isAdult: boolean;
  externalId: string;
  whenToUse: string | null;
}

/** The household's LoRAs as the hub needs them (the LoRA service implements it; the container wires it). */
export interface LoraRegistry {
  register(input: LoraRegistration): Promise<AdminLora>;
  findByExternalId(externalId: string): Promise<AdminLora | null>;
}

/** The durable download queue as the hub uses it (the downloads service; the container wires it). */
export interface HubDownloads {
  enqueue(actor: Actor, job: NewJob): Promise<DownloadJob>;
  progress(jobId: string): Promise<JobProgress | null>;
  /** Absolute path of a queue destination under DATA_DIR. */
  destinationPath(destination: string): string;
}

export interface ModelHubDeps {
  client: ModelHubClient;
  settings: AppSettingsStore;
  registry: LoraRegistry;
  downloads: HubDownloads;
  /** The engine's loras folder (absolute). */
  lorasDir: () => Promise<string>;
  logger: Logger;
  /** How often an import's stream looks at its download (default 500 ms). */
  pollMs?: number;
}

interface PendingImport {
  name: string;
  fileName: string;
  triggerWords: string[];
  baseFamily: BaseFamily | null;
  isAdult: boolean;
  description: string | null;
  jobId: string | null;
  /** A sentence when checking, moving or registering the finished file failed. */
  error: string | null;
  /** The refusal's code when the file itself was refused (e.g. invalid_safetensors); null for other failures. */
  errorCode?: string | null;
}

export type HubImportEvent = { [K in keyof typeof HubImportEvents]: [K, z.infer<(typeof HubImportEvents)[K]>] }[keyof typeof HubImportEvents];

export interface HubImportSink {
  send(...event: HubImportEvent): void;
  signal: AbortSignal;
}

/** A hub failure as the admin reads it: the hub down is 503, a refused key 502, an unknown id 404. */
function hubError(err: unknown): never {
  if (!(err instanceof ModelHubError)) throw err;
  if (err.failure === 'not_found') throw new NotFoundError('The model hub has no such LoRA. Search again and pick one from the list.');
  if (err.failure === 'unauthorized') throw new UpstreamError('model_hub_key_rejected', err.message);
  throw new ServiceUnavailableError('model_hub_unavailable', err.message);
}

/** The queue's last error, as a sentence for the admin. */
function downloadSentence(lastError: string | null): string {
  if (lastError && /answered 40[13]\b|refused to hand over the file/.test(lastError)) return 'The model hub refused the download. It may need an API key, or the saved key may be wrong: check it and try again.';
  return `The download stopped. ${lastError ?? ''} Try the import again; it continues from where it stopped.`.replace(/\s+/g, ' ');
}

export class ModelHubService {
  /** One finish per import at a time (the stream and the queue's completion may both ask). */
  private readonly finishing = new Map<string, Promise<AdminLora>>();

  constructor(private readonly deps: ModelHubDeps) {}

  private apiKey(): Promise<string | null> {
    return this.deps.settings.get<string>(SETTING_HUB_KEY).then((k) => (typeof k === 'string' && k ? k : null));
  }

  // ---- the API key -------------------------------------------------------------------------
  async keyStatus(actor: Actor): Promise<{ set: boolean }> {
    assertAdmin(actor);
    return { set: (await this.apiKey()) !== null };
  }

  async setKey(actor: Actor, key: string): Promise<{ set: boolean }> {
    assertAdmin(actor);
    await this.deps.settings.set(SETTING_HUB_KEY, key);
    this.deps.logger.info('model hub API key saved');
    return { set: true };
  }

  async clearKey(actor: Actor): Promise<void> {
    assertAdmin(actor);
    await this.deps.settings.delete(SETTING_HUB_KEY);
    this.deps.logger.info('model hub API key removed');
  }

  /**
   * The queue's headers for a job: the key as a Bearer token, only for a model-hub job whose URL is
   * on the hub itself (a redirect to its file store drops it, see platform/ssrf-address.ts).
   */
  async downloadHeaders(job: DownloadJob): Promise<Record<string, string> | null> {
    if (job.hostClass !== 'model_hub') return null;
    let origin: string;
    try {
      origin = new URL(job.target).origin;
    } catch {
      return null;
    }
    if (origin !== new URL(this.deps.client.baseUrl).origin) return null;
    const key = await this.apiKey();
    return key ? { authorization: `Bearer ${key}` } : null;
  }

  // ---- search ------------------------------------------------------------------------------
  async search(actor: Actor, input: { query: string; baseFamily?: BaseFamily }): Promise<{ results: HubResult[] }> {
    assertAdmin(actor);
    const apiKey = await this.apiKey();
    const versions = await this.deps.client.search(input.query, { baseModels: input.baseFamily ? HUB_BASE_MODELS[input.baseFamily] : undefined, apiKey }).catch(hubError);
    const results: HubResult[] = [];
    for (const v of versions) {
      const family = baseFamilyOf(v.baseModel);
      if (input.baseFamily && family !== input.baseFamily) continue;
      results.push({
        externalId: v.externalId,
        name: displayName(v),
        description: v.description,
        baseFamily: family,
        triggerWords: v.triggerWords,
        fileName: v.fileName,
        bytes: v.bytes,
        isAdult: v.nsfw,
        importedAs: (await this.deps.registry.findByExternalId(v.externalId))?.id ?? null,
      });
    }
    return { results };
  }

  // ---- import ------------------------------------------------------------------------------
  private async pending(): Promise<Record<string, PendingImport>> {
    return (await this.deps.settings.get<Record<string, PendingImport>>(SETTING_HUB_PENDING)) ?? {};
  }

  private async savePending(externalId: string, entry: PendingImport | null): Promise<void> {
    const all = await this.pending();
    if (entry) all[externalId] = entry;
    else delete all[externalId];
    await this.deps.settings.set(SETTING_HUB_PENDING, all);
  }

  /**
   * The import's refusals (JSON errors, before its stream opens): already imported (409), unknown
   * on the hub (404), the hub down (503), not a LoRA file Hearth can use or too large (422). Then
   * the file is queued; `watch` follows it.
   */
  async startImport(actor: Actor, externalId: string): Promise<{ externalId: string; jobId: string }> {
    assertAdmin(actor);
    const existing = await this.deps.registry.findByExternalId(externalId);
    if (existing) throw new ConflictError('already_imported', `${existing.name} is already one of the household's LoRAs.`);
    const v: HubVersion = await this.deps.client.version(externalId, { apiKey: await this.apiKey() }).catch(hubError);
    const notLora = () => new UnprocessableError('unsupported_lora_file', `${v.fileName} is not a LoRA file Hearth can use: it adds LoRAs as .safetensors files.`);
    // the upload's own name check: pickle formats refused before a byte is downloaded
    assertLoraFileName(path.basename(v.fileName.replace(/\\/g, '/')), notLora);
    const fileName = loraFileName(v.fileName, v.externalId);
    if (!fileName) throw notLora();
    if (v.bytes != null && v.bytes > MAX_LORA_BYTES) throw new UnprocessableError('lora_too_large', `${displayName(v)} is larger than the ${MAX_LORA_BYTES / 1024 ** 3} GB a LoRA may be.`);
    const earlier = (await this.pending())[v.externalId];
    const entry: PendingImport = {
      name: displayName(v),
      fileName: (earlier && !earlier.errorCode ? earlier.fileName : null) ?? (await this.freeFileName(fileName, v.externalId)),
      triggerWords: v.triggerWords,
      baseFamily: baseFamilyOf(v.baseModel),
      isAdult: v.nsfw,
      description: v.description,
      jobId: null,
      error: null,
      errorCode: null,
    };
    await this.savePending(v.externalId, entry);
    // a download already queued for this file is handed back by the queue, not started twice
    const job = await this.deps.downloads.enqueue(actor, {
      kind: 'model',
      target: v.downloadUrl,
      destination: `${HUB_DOWNLOAD_FOLDER}/${entry.fileName}`,
      label: `LoRA ${entry.name}`,
      itemId: `${ITEM_PREFIX}${v.externalId}`,
      expectedBytes: v.bytes,
      sha256: v.sha256,
      hostClass: 'model_hub',
    });
    await this.savePending(v.externalId, { ...entry, jobId: job.id });
    this.deps.logger.info({ externalId: v.externalId, job: job.id, file: entry.fileName }, 'LoRA import queued');
    return { externalId: v.externalId, jobId: job.id };
  }

  /** A name in the loras folder that no other LoRA's file has. */
  private async freeFileName(fileName: string, externalId: string): Promise<string> {
    const dir = await this.deps.lorasDir();
    const taken = async (name: string) =>
      (await exists(resolveInside(dir, name) ?? dir)) || (await exists(this.deps.downloads.destinationPath(`${HUB_DOWNLOAD_FOLDER}/${name}`)));
    if (!(await taken(fileName))) return fileName;
    const ext = path.extname(fileName);
    return `${fileName.slice(0, -ext.length)}-${externalId}${ext}`;
  }

  /** Follows a queued import until its LoRA is registered (done) or its download fails (thrown, a sentence). */
  async watch(started: { externalId: string; jobId: string }, sink: HubImportSink): Promise<void> {
    let last = '';
    while (!sink.signal.aborted) {
      const lora = await this.deps.registry.findByExternalId(started.externalId);
      if (lora) return sink.send('done', { lora });
      const entry = (await this.pending())[started.externalId];
      if (entry?.error) throw entry.errorCode ? new UnprocessableError(entry.errorCode, entry.error) : new UpstreamError('hub_import_failed', entry.error);
      const job = await this.deps.downloads.progress(started.jobId);
      if (!job) throw new ConflictError('hub_download_gone', 'The download was removed from the queue. Try the import again.');
      if (job.state === 'failed') throw new UpstreamError('hub_download_failed', downloadSentence(job.lastError));
      if (job.state === 'cancelled') throw new ConflictError('hub_download_cancelled', 'The download was cancelled in the download queue.');
      if (job.state === 'completed') return sink.send('done', { lora: await this.finish(started.externalId) });
      const state = job.state === 'running' ? 'downloading' : job.lastError ? 'retrying' : 'waiting';
      const event = { state, bytesDone: Math.round(job.bytesDone), bytesTotal: job.bytesTotal, message: state === 'retrying' ? retrySentence(job.lastError) : null } as const;
      const key = JSON.stringify(event);
      if (key !== last) sink.send('progress', event);
      last = key;
      await sleep(this.deps.pollMs ?? 500, sink.signal);
    }
  }

  /** The queue finished a download (download.completed): a hub import's file is registered. */
  async onDownloaded(e: { itemId: string | null }): Promise<void> {
    if (!e.itemId?.startsWith(ITEM_PREFIX)) return;
    const externalId = e.itemId.slice(ITEM_PREFIX.length);
    try {
      await this.finish(externalId);
    } catch (err) {
      // the sentence is kept for the import's stream; the error itself is logged
      this.deps.logger.error({ err, externalId }, 'could not register an imported LoRA');
    }
  }

  private finish(externalId: string): Promise<AdminLora> {
    const running = this.finishing.get(externalId);
    if (running) return running;
    const work = this.finishNow(externalId).finally(() => this.finishing.delete(externalId));
    this.finishing.set(externalId, work);
    return work;
  }

  private async finishNow(externalId: string): Promise<AdminLora> {
    const done = await this.deps.registry.findByExternalId(externalId);
    if (done) return done;
    const entry = (await this.pending())[externalId];
    if (!entry) throw new NotFoundError('That import is not waiting for its file any more. Try the import again.');
    const from = this.deps.downloads.destinationPath(`${HUB_DOWNLOAD_FOLDER}/${entry.fileName}`);
    try {
      // the upload's own check: a file that is not a readable .safetensors is refused and removed
      await checkLoraFile(entry.fileName, from, () => new UnprocessableError('unsupported_lora_file', `${entry.fileName} is not a LoRA file Hearth can use.`));
    } catch (err) {
      if (!(err instanceof AppError)) {
        await this.savePending(externalId, { ...entry, error: `${entry.name} was downloaded but could not be read. Try the import again.` });
        throw err;
      }
      await rm(from, { force: true });
      await this.savePending(externalId, { ...entry, error: `${entry.name}: ${err.message}`, errorCode: err.code });
      this.deps.logger.warn({ externalId, code: err.code, details: err.details }, 'a LoRA from the model hub was refused');
      throw err;
    }
    try {
      const dir = await this.deps.lorasDir();
      const to = resolveInside(dir, entry.fileName);
      if (!to) throw new Error(`${entry.fileName} is not a file name inside the loras folder`);
      if (path.resolve(from) !== path.resolve(to)) await moveFile(from, to);
      const bytes = (await stat(to)).size;
      const lora = await this.deps.registry.register({
        name: entry.name,
        fileName: entry.fileName,
        fileBytes: bytes,
        triggerTokens: entry.triggerWords,
        baseFamilies: entry.baseFamily ? [entry.baseFamily] : [],
        isAdult: entry.isAdult,
        externalId,
        whenToUse: entry.description,
      });
      await this.savePending(externalId, null);
      this.deps.logger.info({ externalId, lora: lora.id }, 'LoRA imported from the model hub');
      return lora;
    } catch (err) {
      await this.savePending(externalId, { ...entry, error: `${entry.name} was downloaded but could not be added to the engine's LoRAs. Check the engine's folder and try again.` });
      throw err;
    }
  }
}

function displayName(v: HubVersion): string {
  const name = v.modelName.trim() || v.versionName.trim() || v.fileName;
  return name.slice(0, 120);
}

function retrySentence(lastError: string | null): string {
  return `The download stopped, and it will continue from where it stopped. ${lastError ?? ''}`.trim();
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Renames, or copies then removes when the folders are on different disks. */
async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}
