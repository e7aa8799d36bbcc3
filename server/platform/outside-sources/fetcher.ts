// The fetcher of cached outside sources (Today's news feeds, forecast, "on this day" and town search;
// the shows' TV guide). Every request goes through the project's SSRF guard (guardedRequest: every redirect hop
// checked, OFFLINE_MODE refused), with a single identifying User-Agent, at most 3 requests at a time
// per host, a time budget and a size cap. A cached source is fetched conditionally (its ETag and
// Last-Modified sent back exactly as stored), a 304 keeps the copy, a 429/503 with Retry-After (seconds
// or an HTTP date) waits that long (clamped to 1 min..24 h), other failures back off and keep the last
// good copy, which is then served with `stale: true`. Validators are saved only after a good parse.
// In offline mode nothing is fetched at all: the cached copy is served stale, or a 503 when there is none.
import { NotFoundError, ServiceUnavailableError } from '../../errors.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { Semaphore } from '../semaphore.js';
import { BlockedUrlError, guardedRequest, OfflineModeError, offlineWho, type SsrfGuard } from '../ssrf.js';
import type { CacheEntry, SourceCacheStore, SourceHealth } from './cache-store.js';

export const PER_HOST_CONCURRENCY = 3;
const MIN_RETRY_AFTER_MS = 60_000;
const MAX_RETRY_AFTER_MS = 24 * 60 * 60_000;
const DEFAULT_RETRY_AFTER_MS = 60 * 60_000;

/** What one fetch of a source is. */
export interface SourceSpec<T> {
  /** Cache key: one row per key (e.g. `weather:open-meteo:48.14,11.58`). */
  key: string;
  /** The source's name in answers and the admin's status (`weather`, `on-this-day`, `news`). */
  source: string;
  url: string;
  /** How long a good copy is fresh. */
  ttlMs: number;
  /** How long this copy is fresh, when it depends on what it says (a match being played: sooner). */
  ttlFor?(payload: T): number;
  accept?: string;
  /** Headers the source needs besides Accept and the User-Agent (an API token): sent, never stored or logged. */
  headers?: Readonly<Record<string, string>>;
  /** Turns a 200 body into the payload kept; throws on garbage (the copy is kept, the fetch counts as failed). */
  parse(body: Buffer, contentType: string): T | Promise<T>;
}

/** The freshness facts every answer built from a cached source carries. */
export interface Freshness {
  source: string;
  fetchedAt: string;
  ageSeconds: number;
  stale: boolean;
  lastError: string | null;
}

export type FetchOutcome =
  | { kind: 'fetched'; entry: CacheEntry; finalUrl: string; permanentRedirect: boolean }
  | { kind: 'not_modified'; entry: CacheEntry }
  | { kind: 'skipped'; entry: CacheEntry | null; reason: 'offline' | 'backoff' }
  | { kind: 'gone'; entry: CacheEntry | null }
  | { kind: 'failed'; entry: CacheEntry | null; error: string; /** the source's HTTP status, when it answered */ status: number | null };

export interface FetchedDocument {
  url: string;
  /** A 301/308 was followed on the way: the source has a new address. */
  permanentRedirect?: boolean;
  body: Buffer;
  contentType: string;
  etag: string | null;
  lastModified: string | null;
}

export class SourceUnavailableError extends ServiceUnavailableError {
  constructor(message: string) {
    super('source_unavailable', message);
  }
}

export class FetchFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'FetchFailure';
  }
}

/** Retry-After as delta-seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? Math.max(0, at - now.getTime()) : null;
}

/** The failure kept for a source that answered another status than 200/203/304/410. */
const answered = (status: number) => `The source answered ${status}.`;

const clampRetry = (ms: number | null) => Math.min(MAX_RETRY_AFTER_MS, Math.max(MIN_RETRY_AFTER_MS, ms ?? DEFAULT_RETRY_AFTER_MS));

/** After n failures in a row: 1, 2, 4 … minutes, at most `maxMs` (an hour unless the source's fetcher says longer). */
const backoffMs = (failCount: number, maxMs = 60 * 60_000) => Math.min(maxMs, 60_000 * 2 ** Math.max(0, failCount - 1));

const header = (h: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

export interface SourceFetcherDeps {
  guard: SsrfGuard;
  store: SourceCacheStore;
  /** The one User-Agent its requests carry (who asks, and how often). */
  userAgent: string;
  /** Its log lines begin with this (`Today`, `Shows`). */
  label: string;
  clock: Clock;
  logger: Logger;
  /** Offline mode, read at each fetch; the guard's own switch when not given. */
  offline?: { isOn(): boolean };
  /** Whole request, headers and body (default 15 s). */
  timeoutMs?: number;
  /** Body cap (default 5 MB). */
  maxBytes?: number;
  /** The longest wait after failures in a row (default an hour): a source failing for days is asked less often than that. */
  maxBackoffMs?: number;
}

export class SourceFetcher {
  private readonly hosts = new Map<string, Semaphore>();
  /** One fetch per key at a time: a second caller waits for the first's outcome. */
  private readonly inflight = new Map<string, Promise<FetchOutcome>>();

  constructor(private readonly deps: SourceFetcherDeps) {}

  /** Offline mode now (read at each call). */
  get offline(): boolean {
    return (this.deps.offline ?? this.deps.guard.offlineSource).isOn();
  }

  /** Who switched offline mode on and how it goes off (the guard's switch), for a module's refusal sentences. */
  get offlineWho(): string {
    return offlineWho(this.deps.guard.offlineSource.reason);
  }

  /** Each source's last good fetch and last failure, for the admin's Connectivity page. */
  health(): Promise<SourceHealth[]> {
    return this.deps.store.health();
  }

  private now(): Date {
    return this.deps.clock.now();
  }

  private hostSlot(url: string): Semaphore {
    const host = new URL(url).host;
    let s = this.hosts.get(host);
    if (!s) this.hosts.set(host, (s = new Semaphore(PER_HOST_CONCURRENCY)));
    return s;
  }

  /** The freshness facts of a cached copy (it must have been fetched once). */
  freshness(entry: CacheEntry): Freshness {
    const now = this.now();
    const fetchedAt = entry.fetchedAt ?? now.toISOString();
    const expired = entry.expiresAt === null || Date.parse(entry.expiresAt) <= now.getTime();
    return {
      source: entry.source,
      fetchedAt,
      ageSeconds: Math.max(0, Math.floor((now.getTime() - Date.parse(fetchedAt)) / 1000)),
      stale: entry.failCount > 0 || expired,
      lastError: entry.lastError,
    };
  }

  /**
   * The source's payload: the cached copy while fresh, else a refresh (which may serve the cached
   * copy stale). No copy at all and no way to get one → 503 source_unavailable with `unavailable`.
   */
  async read<T>(spec: SourceSpec<T>, unavailable: string, opts: { notFound?: string } = {}): Promise<{ payload: T; freshness: Freshness }> {
    const cached = await this.deps.store.get(spec.key);
    const fresh = cached?.fetchedAt && cached.expiresAt && Date.parse(cached.expiresAt) > this.now().getTime() && cached.url === spec.url;
    const outcome = fresh ? null : await this.refresh(spec);
    const entry = outcome ? outcome.entry : cached;
    if (!entry || entry.fetchedAt === null || entry.payload === null) {
      // the source says there is no such thing (a show id it does not know): 404 with the caller's sentence
      // (or said so a moment ago: the backoff keeps the failure, not the status)
      const said404 = outcome?.kind === 'failed' ? outcome.status === 404 : outcome?.entry?.lastError === answered(404);
      if (opts.notFound && said404) throw new NotFoundError(opts.notFound);
      throw new SourceUnavailableError(unavailable);
    }
    return { payload: entry.payload as T, freshness: this.freshness(entry) };
  }

  /** Fetches now unless offline or inside a Retry-After/backoff window (`force` skips only the backoff of plain failures, never Retry-After). */
  refresh<T>(spec: SourceSpec<T>, opts: { force?: boolean } = {}): Promise<FetchOutcome> {
    const running = this.inflight.get(spec.key);
    if (running) return running;
    const p = this.refreshOnce(spec, opts).finally(() => this.inflight.delete(spec.key));
    this.inflight.set(spec.key, p);
    return p;
  }

  private async refreshOnce<T>(spec: SourceSpec<T>, opts: { force?: boolean }): Promise<FetchOutcome> {
    const { store } = this.deps;
    const cached = await store.get(spec.key);
    if (this.offline) return { kind: 'skipped', entry: cached, reason: 'offline' };
    const now = this.now();
    if (cached?.nextTryAt && Date.parse(cached.nextTryAt) > now.getTime()) {
      const honoured = !opts.force || cached.lastError?.startsWith('Asked to wait') === true;
      if (honoured) return { kind: 'skipped', entry: cached, reason: 'backoff' };
    }
    // validators only for the same address and only with a copy to keep
    const base: CacheEntry = cached && cached.url === spec.url ? cached : this.blank(spec, cached);
    const conditional: Record<string, string> = {};
    if (base.payload !== null && base.etag) conditional['if-none-match'] = base.etag;
    if (base.payload !== null && base.lastModified) conditional['if-modified-since'] = base.lastModified;
    try {
      const res = await this.hostSlot(spec.url).run(() => this.get(spec.url, spec.accept, { ...spec.headers, ...conditional }));
      const at = this.now().toISOString();
      let expiresAt = new Date(this.now().getTime() + spec.ttlMs).toISOString();
      if (res.status === 304 && base.payload !== null) {
        const entry: CacheEntry = { ...base, source: spec.source, fetchedAt: at, expiresAt, failCount: 0, nextTryAt: null, lastError: null, lastTryAt: at };
        await store.put(entry);
        return { kind: 'not_modified', entry };
      }
      if (res.status === 410) {
        const entry: CacheEntry = { ...base, failCount: base.failCount + 1, lastError: 'The source says it is gone for good (410).', lastTryAt: at, nextTryAt: null };
        await store.put(entry);
        return { kind: 'gone', entry };
      }
      if (res.status !== 200 && res.status !== 203) throw new FetchFailure(answered(res.status), res.retryAfterMs, res.status);
      if (res.status === 203) this.deps.logger.warn({ source: spec.source, host: new URL(spec.url).host }, `${this.deps.label}: the source says this product is deprecated (203); it will stop answering in about a month.`);
      let payload: T;
      try {
        payload = await spec.parse(res.body, res.contentType);
      } catch (err) {
        throw new FetchFailure(`The source sent something Hearth cannot read (${(err as Error).message.slice(0, 120)}).`);
      }
      if (spec.ttlFor) expiresAt = new Date(this.now().getTime() + spec.ttlFor(payload)).toISOString();
      const entry: CacheEntry = {
        ...base,
        source: spec.source,
        payload,
        fetchedAt: at,
        expiresAt,
        etag: res.etag ?? null,
        lastModified: res.lastModified ?? null,
        failCount: 0,
        nextTryAt: null,
        lastError: null,
        lastTryAt: at,
      };
      await store.put(entry);
      return { kind: 'fetched', entry, finalUrl: res.url, permanentRedirect: res.permanentRedirect };
    } catch (err) {
      return this.fail(spec, base, err);
    }
  }

  private blank(spec: SourceSpec<unknown>, previous: CacheEntry | null): CacheEntry {
    return {
      key: spec.key,
      source: spec.source,
      url: spec.url,
      payload: previous?.payload ?? null,
      fetchedAt: previous?.fetchedAt ?? null,
      expiresAt: previous?.expiresAt ?? null,
      etag: null,
      lastModified: null,
      failCount: 0,
      nextTryAt: null,
      lastError: null,
      lastTryAt: null,
    };
  }

  private async fail(spec: SourceSpec<unknown>, base: CacheEntry, err: unknown): Promise<FetchOutcome> {
    const now = this.now();
    const failCount = base.failCount + 1;
    let message: string;
    let waitMs: number;
    if (err instanceof FetchFailure && err.status !== null && (err.status === 429 || err.status === 503)) {
      waitMs = clampRetry(err.retryAfterMs);
      message = `Asked to wait (${err.status}); trying again after ${new Date(now.getTime() + waitMs).toISOString()}.`;
    } else {
      waitMs = backoffMs(failCount, this.deps.maxBackoffMs);
      message = err instanceof FetchFailure ? err.message : err instanceof OfflineModeError ? 'Hearth is in offline mode.' : describeNetworkError(err);
    }
    const entry: CacheEntry = { ...base, failCount, lastError: message, nextTryAt: new Date(now.getTime() + waitMs).toISOString(), lastTryAt: now.toISOString() };
    await this.deps.store.put(entry);
    this.deps.logger.warn({ source: spec.source, host: new URL(spec.url).host, failCount }, `${this.deps.label}: ${message}`);
    return { kind: 'failed', entry, error: message, status: err instanceof FetchFailure ? err.status : null };
  }

  /**
   * An uncached GET (the town search at setup): same guard, User-Agent, host cap, time budget and
   * size cap; a non-200 or a network failure is a FetchFailure.
   */
  async fetchOnce(url: string, accept = 'application/json'): Promise<FetchedDocument> {
    if (this.offline) throw new FetchFailure('Hearth is in offline mode.');
    const res = await this.hostSlot(url)
      .run(() => this.get(url, accept, {}))
      .catch((err: unknown) => {
        throw err instanceof FetchFailure ? err : new FetchFailure(describeNetworkError(err));
      });
    if (res.status !== 200) throw new FetchFailure(answered(res.status), res.retryAfterMs, res.status);
    return { url: res.url, permanentRedirect: res.permanentRedirect, body: res.body, contentType: res.contentType, etag: res.etag ?? null, lastModified: res.lastModified ?? null };
  }

  /** Records a copy fetched by fetchOnce as the source's cached copy (a feed added: its first poll is that fetch). */
  async remember<T>(spec: SourceSpec<T>, doc: FetchedDocument, payload: T): Promise<void> {
    const now = this.now();
    await this.deps.store.put({
      key: spec.key,
      source: spec.source,
      url: spec.url,
      payload,
      fetchedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + spec.ttlMs).toISOString(),
      etag: doc.etag,
      lastModified: doc.lastModified,
      failCount: 0,
      nextTryAt: null,
      lastError: null,
      lastTryAt: now.toISOString(),
    });
  }

  /** Forgets a source (a feed removed). */
  forget(key: string): Promise<void> {
    return this.deps.store.delete(key);
  }

  /** Forgets one source's copies fetched before `before` (ISO), except the keys in `keep`. */
  forgetBefore(source: string, before: string, keep: readonly string[] = []): Promise<number> {
    return this.deps.store.deleteFetchedBefore(source, before, keep);
  }

  /** The cached copy of a source with its freshness, never fetching (the briefing is built from these only). */
  async peek<T>(spec: Pick<SourceSpec<T>, 'key' | 'url'>): Promise<{ payload: T; freshness: Freshness } | null> {
    const entry = await this.deps.store.get(spec.key);
    if (!entry || entry.fetchedAt === null || entry.payload === null) return null;
    return { payload: entry.payload as T, freshness: this.freshness(entry) };
  }

  /** Every cached entry of one source (all news feeds), in one query. */
  entriesOf(source: string): Promise<CacheEntry[]> {
    return this.deps.store.listBySource(source);
  }

  /** The cached state of a source, if any. */
  entry(key: string): Promise<CacheEntry | null> {
    return this.deps.store.get(key);
  }

  private async get(url: string, accept: string | undefined, conditional: Record<string, string>) {
    const timeoutMs = this.deps.timeoutMs ?? 15_000;
    const maxBytes = this.deps.maxBytes ?? 5 * 1024 * 1024;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await guardedRequest(this.deps.guard, url, {
        headers: { 'user-agent': this.deps.userAgent, accept: accept ?? '*/*', 'accept-encoding': 'identity', ...conditional },
        signal,
        headersTimeoutMs: timeoutMs,
        bodyTimeoutMs: timeoutMs,
      });
      const discard = () => {
        res.body.on('error', () => undefined);
        res.body.destroy();
      };
      const common = {
        status: res.statusCode,
        url: res.url,
        permanentRedirect: res.redirectStatuses.some((s) => s === 301 || s === 308),
        contentType: header(res.headers, 'content-type') ?? '',
        etag: header(res.headers, 'etag'),
        lastModified: header(res.headers, 'last-modified'),
        retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after'), this.now()),
      };
      const declared = Number(header(res.headers, 'content-length'));
      // 203: MET Norway's "this product is deprecated" — still the forecast, read like a 200
      if (res.statusCode !== 200 && res.statusCode !== 203) {
        discard();
        return { ...common, body: Buffer.alloc(0) };
      }
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard();
        throw new FetchFailure(`The source sent more than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          discard();
          throw new FetchFailure(`The source sent more than ${Math.round(maxBytes / 1024 / 1024)} MB.`);
        }
        chunks.push(chunk as Buffer);
      }
      return { ...common, body: Buffer.concat(chunks) };
    } catch (err) {
      if (err instanceof FetchFailure) throw err;
      if (signal.aborted) throw new FetchFailure(`The source did not answer within ${Math.round(timeoutMs / 1000)} s.`);
      throw err;
    }
  }
}

function describeNetworkError(err: unknown): string {
  if (err instanceof OfflineModeError) return 'Hearth is in offline mode.';
  const code = (err as NodeJS.ErrnoException).code ?? (err as { cause?: NodeJS.ErrnoException }).cause?.code ?? '';
  if (code === 'ESSRFBLOCKED' || err instanceof BlockedUrlError) return 'That address is not allowed (it points inside the home network).';
  if (['ENOTFOUND', 'EAI_AGAIN'].includes(code)) return 'The source’s name could not be found.';
  return 'The source could not be reached.';
}

/** One outside source as the admin's Connectivity page lists it: its last good fetch and last failure; null when never used. */
export interface OutboundSourceReport {
  name: string;
  health(): Promise<Omit<SourceHealth, 'source'> | null>;
}

/**
 * The fetcher's sources under the names a person reads (`{ weather: 'Weather (Today)' }`); several
 * cache sources may share one name (the TV guide's shows, searches and posters).
 */
export function outboundSourcesOf(fetcher: Pick<SourceFetcher, 'health'>, names: Record<string, string>): OutboundSourceReport[] {
  const byName = new Map<string, string[]>();
  for (const [source, name] of Object.entries(names)) byName.set(name, [...(byName.get(name) ?? []), source]);
  const latest = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);
  return [...byName].map(([name, sources]) => ({
    name,
    health: async () => {
      const rows = (await fetcher.health()).filter((h) => sources.includes(h.source));
      if (!rows.length) return null;
      const failed = rows.filter((r) => r.lastError !== null).sort((a, b) => (b.lastErrorAt ?? '').localeCompare(a.lastErrorAt ?? ''))[0];
      return { lastSuccessAt: rows.reduce<string | null>((m, r) => latest(m, r.lastSuccessAt), null), lastError: failed?.lastError ?? null, lastErrorAt: failed?.lastErrorAt ?? null };
    },
  }));
}
