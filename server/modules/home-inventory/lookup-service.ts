// The web lookup (spec: "Web lookup", "Device lookup status"). start() decides: skipped with a
// sentence (no brand or model, offline mode, no WEB_SEARCH_URL), or pending and a background run
// that the request never waits for: one per device at a time, a few at once, aborted and awaited by
// close() (a run cut off by a shutdown or a crash stays pending and is started again by
// resumePending() at the next start). A run does in parallel:
//   (a) search guidance and baseline specs from the household's text model (skipped quietly when
//       the runtime is down or no model is chosen; lookup-specs.ts);
//   (b) the manual: a "<brand> <model> manual filetype:pdf" search, PDF results tried in order until
//       one downloads and reads (manual-service.ts);
//   (c) the maker's support page: a phone number and product pictures (support-page.ts);
//   (d) up to MAX_LOOKUP_PHOTOS product photos (image search, then the support page's pictures),
//       checked by their first bytes and stored with sharp as files with source ai; the first
//       becomes the main photo when there is none;
//   (e) how-to videos, stored as links with category video.
// Then complete (the AI specs merged over the label's, support URL and phone filled when empty, the
// manual and support page kept as links) or failed with a sentence; the device always survives.
// Every URL fetched passes the one SSRF guard (the search server through a guard that lets its own
// origin through, everything it finds through the household's guard).
import { randomUUID } from 'node:crypto';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import { modelRuntimeAppError } from '../../adapter-errors/model-runtime.js';
import type { WebSearchClient, WebSearchResult } from '../../adapters/web-search/searxng.js';
import { webSearchAppError, webSearchDown, webSearchFailureKind } from '../../adapter-errors/web-search.js';
import { fetchCapped } from '../../adapters/web/fetch-capped.js';
import { SYSTEM_ACTOR, type Actor, type UserActor } from '../../actor.js';
import { AppError, ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { withoutUrls, type Logger } from '../../platform/logger.js';
import { Semaphore } from '../../platform/semaphore.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { sniff, type InventoryFiles } from './files.js';
import { askSpecs, mergeSpecs, type Guidance } from './lookup-specs.js';
import type { ManualService } from './manual-service.js';
import type { DeviceLookup, InventoryModelPicker } from './parts.js';
import { MAX_FILES_PER_DEVICE, MAX_LOOKUP_PHOTOS, type LookupStatus } from './schema.js';
import type { DeviceRecord, HomeInventoryStore } from './store.js';

export const LOOKUP_SKIPPED = {
  noBrandOrModel: 'Add the brand and the model to look this device up on the web.',
  offline: 'Hearth is in offline mode, so it does not look devices up on the web.',
  noSearch: 'No web search is set up yet, so Hearth cannot look devices up on the web. An admin can add the address of the household’s search server on this page.',
} as const;
export const LOOKUP_INTERRUPTED = 'The lookup was interrupted when Hearth stopped. Look it up again.';
const LOOKUP_UNEXPECTED = 'The lookup stopped because of an unexpected problem. Try again later.';

/** Why a lookup failed, as the household reads it (the adapter's own words go to the log). */
export function lookupFailureSentence(err: unknown): string {
  const answer = webSearchAppError(err);
  return answer instanceof AppError && answer.code.startsWith('web_search_') ? answer.message : LOOKUP_UNEXPECTED;
}

/** Manual PDFs tried per lookup, support pages read, pictures tried, videos kept. */
const MAX_MANUAL_TRIES = 3;
const MAX_PHOTO_TRIES = 8;
const MAX_VIDEOS = 3;
const MAX_PAGE_BYTES = 2 * 1024 * 1024;
const MAX_PAGE_PARSE_BYTES = 512 * 1024;
const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

export interface HomeLookupDeps {
  store: HomeInventoryStore;
  files: InventoryFiles;
  manuals: ManualService;
  /** The search engine set now (an admin's setting or WEB_SEARCH_URL); null when none is. */
  search: { current(): Promise<WebSearchClient | null> };
  /** The household's guard, for everything the search finds. */
  guard: SsrfGuard;
  /** Offline mode, read at each lookup (platform/offline-switch.ts). */
  offline: { isOn(): boolean };
  runtime: ModelRuntimeClient;
  /** The text model for generate-specs (a member asks). */
  picker: InventoryModelPicker;
  /** The household's text model for a lookup nobody waits on (null: none chosen). */
  backgroundTextModel: () => Promise<string | null>;
  clock: Clock;
  logger: Logger;
  /** Lookups running at once (default 2). */
  concurrency?: number;
  /** Per page or picture fetched (default 15 s). */
  fetchTimeoutMs?: number;
  /** The text model's answer (default 90 s). */
  modelTimeoutMs?: number;
}

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

const looksLikePdf = (r: WebSearchResult) => /\.pdf($|[?#])/i.test(new URL(r.url).pathname + new URL(r.url).search) || /\bpdf\b/i.test(r.title);

export class HomeLookupService implements DeviceLookup {
  private readonly runs = new Map<string, Run>();
  private readonly slots: Semaphore;
  private closed = false;
  private readonly log: Logger;

  constructor(private readonly deps: HomeLookupDeps) {
    this.slots = new Semaphore(deps.concurrency ?? 2);
    this.log = deps.logger;
  }

  /** Any member may ask for any device's lookup (the inventory is the household's); the system resumes pending ones. */
  async start(actor: Actor, deviceId: string): Promise<LookupStatus> {
    const device = await this.deps.store.getDevice(deviceId);
    if (!device) throw new NotFoundError('That device is not in the inventory.');
    const skip = await this.skipReason(device);
    const now = this.deps.clock.now().toISOString();
    if (skip) {
      await this.deps.store.updateDevice(deviceId, { lookupStatus: 'skipped', lookupError: skip, lookupQueuedAt: null });
      return 'skipped';
    }
    // one lookup per device at a time: asking again while one runs changes nothing
    if (this.runs.has(deviceId)) return 'pending';
    await this.deps.store.updateDevice(deviceId, { lookupStatus: 'pending', lookupError: null, lookupQueuedAt: now });
    if (this.closed) return 'pending'; // the next start picks it up
    const controller = new AbortController();
    const done = this.slots
      .run(() => this.run(deviceId, controller.signal))
      .catch((err: unknown) => this.log.error({ deviceId, err }, 'inventory lookup: could not record the outcome'))
      .finally(() => {
        if (this.runs.get(deviceId)?.controller === controller) this.runs.delete(deviceId);
      });
    this.runs.set(deviceId, { controller, done });
    return 'pending';
  }

  private async skipReason(d: DeviceRecord): Promise<string | null> {
    if (!d.brand?.trim() || !d.model?.trim()) return LOOKUP_SKIPPED.noBrandOrModel;
    if (this.deps.offline.isOn()) return LOOKUP_SKIPPED.offline;
    if (!(await this.deps.search.current())) return LOOKUP_SKIPPED.noSearch;
    return null;
  }

  /** The search engine set now (an admin may have removed it since the lookup started). */
  private async searcher(): Promise<WebSearchClient> {
    const client = await this.deps.search.current();
    if (!client) throw webSearchDown();
    return client;
  }

  /** Lookups a crash or a shutdown left pending start again (or are skipped when they no longer can run). */
  async resumePending(): Promise<number> {
    const pending = await this.deps.store.listByLookupStatus('pending');
    for (const d of pending) {
      try {
        await this.start(SYSTEM_ACTOR, d.id);
      } catch (err) {
        this.log.warn({ deviceId: d.id, err: (err as Error).message }, 'inventory lookup: a pending lookup could not start again');
        await this.deps.store.updateDevice(d.id, { lookupStatus: 'failed', lookupError: LOOKUP_INTERRUPTED });
      }
    }
    return pending.length;
  }

  /** Whether a lookup of the device is running or waiting for a slot. */
  isRunning(deviceId: string): boolean {
    return this.runs.has(deviceId);
  }

  /** Aborts every run and waits for them; their devices stay pending for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    const runs = [...this.runs.values()];
    for (const r of runs) r.controller.abort(Object.assign(new Error('Hearth is stopping.'), { name: 'LookupAborted' }));
    await Promise.allSettled(runs.map((r) => r.done));
    await this.deps.manuals.close();
  }

  private async run(deviceId: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const device = await this.deps.store.getDevice(deviceId);
    if (!device || device.lookupStatus !== 'pending') return;
    const brand = device.brand!.trim();
    const model = device.model!.trim();
    const started = Date.now();

    const guidance = this.guidance(device, signal);
    const manual = this.findManual(device, `${brand} ${model} manual filetype:pdf`, signal);
    const support = this.readSupport(device, signal);
    const photos = this.storePhotos(device, support, signal);
    const videos = this.storeVideos(device, signal);
    const [g, m, sp, ph, v] = await Promise.allSettled([guidance, manual, support, photos, videos]);
    if (signal.aborted) return; // stays pending: the next start looks it up again

    let manualUrl = m.status === 'fulfilled' ? m.value : null;
    const aiGuidance = g.status === 'fulfilled' ? g.value : null;
    // the model's own search for the manual, when the plain one found nothing
    if (m.status === 'fulfilled' && !manualUrl && aiGuidance?.manualQuery) {
      manualUrl = await this.findManual(device, aiGuidance.manualQuery, signal).catch(() => null);
      if (signal.aborted) return;
    }

    const failures = [m, sp, ph, v].filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
    const current = await this.deps.store.getDevice(deviceId);
    if (!current) {
      // deleted meanwhile: what this run wrote into its folder goes too
      await this.deps.files.removeDevice(deviceId);
      return;
    }
    const now = this.deps.clock.now().toISOString();
    if (failures.length > 0) {
      const first = failures[0];
      const failure = webSearchFailureKind(first);
      if (failure) this.log.info({ deviceId, failure, err: withoutUrls((first as Error).message) }, 'inventory lookup failed');
      else if (first instanceof AppError && first.code.startsWith('web_search_')) this.log.info({ deviceId, failure: first.code }, 'inventory lookup failed');
      else this.log.error({ deviceId, err: first }, 'inventory lookup failed');
      await this.deps.store.updateDevice(deviceId, { lookupStatus: 'failed', lookupError: lookupFailureSentence(first), updatedAt: now });
      return;
    }
    const page = sp.status === 'fulfilled' ? sp.value : null;
    const patch: Partial<DeviceRecord> = { lookupStatus: 'complete', lookupError: null, updatedAt: now };
    if (aiGuidance && Object.keys(aiGuidance.specs).length) patch.specs = mergeSpecs(current.specs, aiGuidance.specs);
    if (page && !current.supportUrl) patch.supportUrl = page.url;
    if (page?.phone && !current.supportPhone) patch.supportPhone = page.phone;
    await this.deps.store.updateDevice(deviceId, patch);
    if (manualUrl) await this.addLink(deviceId, 'manual', "Owner's manual (PDF)", manualUrl);
    if (page) await this.addLink(deviceId, 'support', `${brand} support page`, page.url);
    this.log.info(
      { deviceId, ms: Date.now() - started, manual: Boolean(manualUrl), support: Boolean(page), photos: ph.status === 'fulfilled' ? ph.value : 0, videos: v.status === 'fulfilled' ? v.value : 0, specs: aiGuidance ? Object.keys(aiGuidance.specs).length : null },
      'inventory lookup complete',
    );
  }

  private async addLink(deviceId: string, category: 'manual' | 'support' | 'video', label: string, url: string): Promise<boolean> {
    return this.deps.store.insertLink({ id: randomUUID(), deviceId, category, label: label.slice(0, 200), url, source: 'ai', createdAt: this.deps.clock.now().toISOString() });
  }

  // ---- (a) search guidance and baseline specs ----

  /** Null when there is no model or the runtime is down: the rest of the lookup goes on without it. */
  private async guidance(d: DeviceRecord, signal: AbortSignal): Promise<Guidance | null> {
    try {
      const model = await this.deps.backgroundTextModel();
      if (!model) return null;
      return await askSpecs(this.deps.runtime, model, d, { timeoutMs: this.deps.modelTimeoutMs, signal });
    } catch (err) {
      if (signal.aborted) throw err;
      this.log.info({ deviceId: d.id, err: withoutUrls((err as Error).message) }, 'inventory lookup: no specs from the text model');
      return null;
    }
  }

  // ---- (b) the manual ----

  private async findManual(d: DeviceRecord, query: string, signal: AbortSignal): Promise<string | null> {
    if (d.manualText?.trim()) return d.manualUrl; // the member's (or an earlier lookup's) manual stays
    const results = await (await this.searcher()).search(query, { signal });
    const candidates = results.filter(looksLikePdf).slice(0, MAX_MANUAL_TRIES);
    for (const r of candidates) {
      try {
        const got = await this.deps.manuals.fetchManual(d.id, r.url, signal);
        this.log.info({ deviceId: d.id, bytes: got.bytes, pages: got.pages }, 'inventory lookup: manual kept');
        return r.url;
      } catch (err) {
        if (signal.aborted) throw err;
        this.log.info({ deviceId: d.id, err: withoutUrls((err as Error).message) }, 'inventory lookup: manual not kept');
      }
    }
    return null;
  }

  // ---- (c) the support page ----

  private async readSupport(d: DeviceRecord, signal: AbortSignal): Promise<{ url: string; phone: string | null; images: string[] } | null> {
    const results = (await (await this.searcher()).search(`${d.brand} ${d.model} support`, { signal })).filter((r) => !looksLikePdf(r));
    const brand = d.brand!.toLowerCase().replace(/[^a-z0-9]/g, '');
    // the maker's own site first
    const ranked = [...results.filter((r) => brand && new URL(r.url).hostname.replace(/[^a-z0-9]/g, '').includes(brand)), ...results];
    for (const r of [...new Set(ranked)].slice(0, 2)) {
      try {
        const res = await fetchCapped(this.deps.guard, r.url, { maxBytes: MAX_PAGE_BYTES, timeoutMs: this.deps.fetchTimeoutMs ?? 15_000, accept: 'text/html', signal });
        if (res.status !== 200 || !/html/i.test(res.contentType)) continue;
        // parsed on this thread (~15 ms for 512 KB): the head (og:image) and the contact details of a real page come well before
        // the page reader (and htmlparser2) is loaded by the first lookup, not at start
        const { readSupportPage } = await import('./support-page.js');
        const facts = readSupportPage(res.body.subarray(0, MAX_PAGE_PARSE_BYTES).toString('utf8'), res.url);
        return { url: r.url, ...facts };
      } catch (err) {
        if (signal.aborted) throw err;
        this.log.info({ deviceId: d.id, err: withoutUrls((err as Error).message) }, 'inventory lookup: support page not read');
      }
    }
    return null;
  }

  // ---- (d) product photos ----

  private async storePhotos(d: DeviceRecord, support: Promise<{ images: string[] } | null>, signal: AbortSignal): Promise<number> {
    const files = await this.deps.store.listFiles(d.id);
    const want = Math.min(MAX_LOOKUP_PHOTOS - files.filter((f) => f.source === 'ai' && f.fileType === 'image').length, MAX_FILES_PER_DEVICE - files.length);
    if (want <= 0) return 0;
    const found = await (await this.searcher()).search(`${d.brand} ${d.model}`, { category: 'images', signal });
    const fromPage = await support.catch(() => null);
    const urls = [...new Set([...found.map((r) => r.imgSrc).filter((u): u is string => Boolean(u)), ...(fromPage?.images ?? [])])].slice(0, MAX_PHOTO_TRIES);
    let stored = 0;
    for (const url of urls) {
      if (stored >= want) break;
      try {
        const res = await fetchCapped(this.deps.guard, url, { maxBytes: MAX_PHOTO_BYTES, timeoutMs: this.deps.fetchTimeoutMs ?? 15_000, accept: 'image/*', signal });
        if (res.status !== 200 || sniff(res.body.subarray(0, 16)).kind !== 'image') {
          this.log.info({ deviceId: d.id, status: res.status }, 'inventory lookup: not a picture');
          continue;
        }
        const fileId = randomUUID();
        const image = await this.deps.files.storeImage(d.id, fileId, res.body);
        if (signal.aborted || !(await this.deps.store.getDevice(d.id))) {
          await this.deps.files.remove(image.filePath);
          await this.deps.files.remove(image.thumbPath);
          break;
        }
        stored++;
        const at = this.deps.clock.now().toISOString();
        await this.deps.store.insertFile({ id: fileId, deviceId: d.id, label: `Product photo ${stored}`, filePath: image.filePath, thumbPath: image.thumbPath, fileType: 'image', contentType: image.contentType, bytes: image.bytes, source: 'ai', comment: null, createdBy: null, createdAt: at });
        const now = await this.deps.store.getDevice(d.id);
        if (now && !now.mainPhotoId) await this.deps.store.updateDevice(d.id, { mainPhotoId: fileId, photoPath: image.filePath, updatedAt: at });
      } catch (err) {
        if (signal.aborted) throw err;
        this.log.info({ deviceId: d.id, err: withoutUrls((err as Error).message) }, 'inventory lookup: picture not kept');
      }
    }
    return stored;
  }

  // ---- (e) how-to videos ----

  private async storeVideos(d: DeviceRecord, signal: AbortSignal): Promise<number> {
    const found = await (await this.searcher()).search(`${d.brand} ${d.model} how to`, { category: 'videos', signal });
    let added = 0;
    for (const r of found.slice(0, MAX_VIDEOS)) {
      if (await this.addLink(d.id, 'video', r.title || `${d.brand} ${d.model} video`, r.url)) added++;
    }
    return added;
  }

  // ---- generate-specs ----

  /** The text model's baseline specs for the device's brand and model, for the member to review (nothing is written). */
  async generateSpecs(actor: UserActor, deviceId: string): Promise<Record<string, string>> {
    const device = await this.deps.store.getDevice(deviceId);
    if (!device) throw new NotFoundError('That device is not in the inventory.');
    if (!device.brand?.trim() || !device.model?.trim()) throw new ConflictError('brand_and_model_needed', 'Add the brand and the model first, so the AI model knows which device it is.');
    const model = await this.deps.picker.textModel(actor);
    try {
      return (await askSpecs(this.deps.runtime, model, device, { timeoutMs: this.deps.modelTimeoutMs })).specs;
    } catch (err) {
      throw modelRuntimeAppError(err, { model });
    }
  }
}

