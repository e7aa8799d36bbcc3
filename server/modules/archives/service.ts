// Reference archives: which archives are installed, the archive server that serves them (through
// the one supervisor), favicons, companion search, and the admin operations (download with resume
// and checksum, cancel, delete, verify with quarantine). The content proxy is content.ts, the
// install of the archive server itself runtime-install.ts.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { assertAdmin, type Actor } from '../../actor.js';
import { removePartial } from '../../adapters/web/download.js';
import { downloadInWorker } from '../../adapters/web/download-worker.js';
import type { CatalogBook, KiwixClient } from '../../adapters/archive-server/kiwix.js';
import { ConflictError, NotFoundError, publicError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { ArchiveServerConfig } from '../../platform/sidecars/archive-server.js';
import type { ProcessSupervisor, SidecarStatus } from '../../platform/sidecars/supervisor.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import type { ArchiveEntryCache } from './entry-cache.js';
import { encodeSegments, headerValue } from './proxy.js';
import { type ArchiveCatalog, type ArchiveRecord, type CatalogSource } from './schema.js';
import type { ArchivesStore } from './store.js';
import { downloadFailure, progressEvents, type DownloadEvents } from './download-events.js';
import { checkFull, checkStructure } from './zim-check.js';

export interface ArchivesDeps {
  store: ArchivesStore;
  catalog: ArchiveCatalog;
  supervisor: ProcessSupervisor<ArchiveServerConfig>;
  kiwix: KiwixClient;
  isInstalled: () => boolean;
  guard: SsrfGuard;
  dataDir: string;
  offline: boolean;
  clock: Clock;
  logger: Logger;
  stallTimeoutMs?: number;
  /** The content proxy's memory cache of entries (emptied whenever the served archives change). */
  cache: ArchiveEntryCache;
}

type WatchEvent = { event: 'status' | 'progress' | 'done' | 'cancelled' | 'error'; data: unknown };
interface DownloadWatch {
  latest: Map<string, WatchEvent>;
  /** Called with each event, then with null when the download is over. */
  listeners: Set<(e: WatchEvent | null) => void>;
}

export class ArchivesService {
  /** sourceId -> the book as the running server lists it. */
  private books = new Map<string, CatalogBook>();
  private readonly downloads = new Map<string, AbortController>();
  /** sourceId -> who follows its running download (GET /download/:sourceId). */
  private readonly watches = new Map<string, DownloadWatch>();
  private readonly favicons = new Map<string, { type: string; body: Buffer }>();
  private serving: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ArchivesDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The book the running archive server lists for an archive (undefined while it is not served). */
  book(sourceId: string): CatalogBook | undefined {
    return this.books.get(sourceId);
  }

  isDownloading(sourceId: string): boolean {
    return this.downloads.has(sourceId);
  }

  source(sourceId: string): CatalogSource | null {
    return this.deps.catalog.sources.find((s) => s.id === sourceId) ?? null;
  }

  sourceDir(sourceId: string): string {
    return path.join(this.deps.dataDir, 'archives', sourceId);
  }

  /**
   * (Re)starts the archive server with every healthy installed archive. Each file passes the fast
   * structural check first, so one damaged file cannot keep the others from being served. After
   * the server is ready, each archive's URL segment is read from the server's own catalog.
   */
  serve(): Promise<void> {
    const run = this.serving.catch(() => undefined).then(async () => {
      const rows = (await this.deps.store.list()).filter((r) => !r.quarantinedAt);
      const healthy: Array<{ row: ArchiveRecord; uuid: string }> = [];
      for (const row of rows) {
        const check = await checkStructure(row.filePath);
        if (check.ok) healthy.push({ row, uuid: check.header.uuid });
        else {
          this.deps.logger.warn({ sourceId: row.sourceId, reason: check.reason }, 'archive left out: damaged');
          await this.deps.store.update(row.sourceId, { quarantinedAt: this.now(), quarantineReason: check.reason }, this.now());
        }
      }
      this.books.clear();
      this.favicons.clear();
      this.deps.cache.clear();
      if (healthy.length === 0) {
        await this.deps.supervisor.stop();
        return;
      }
      await this.deps.supervisor.apply({ files: healthy.map((h) => h.row.filePath) });
      if (this.deps.supervisor.status().state !== 'ready') return;
      const entries = await this.deps.kiwix.catalog();
      for (const { row, uuid } of healthy) {
        const book = entries.find((e) => e.uuid.replace(/-/g, '') === uuid) ?? null;
        if (!book) continue;
        this.books.set(row.sourceId, book);
        if (row.bookName !== book.urlName) await this.deps.store.update(row.sourceId, { bookName: book.urlName }, this.now());
      }
    });
    this.serving = run;
    return run;
  }

  status(): SidecarStatus & { installed: boolean } {
    return { ...this.deps.supervisor.status(), installed: this.deps.isInstalled() };
  }

  async statusView(): Promise<{ kiwixInstalled: boolean; kiwixState: string; kiwixError: string | null; installedCount: number }> {
    const s = this.status();
    const rows = await this.deps.store.list();
    return { kiwixInstalled: s.installed, kiwixState: s.state, kiwixError: s.error, installedCount: rows.filter((r) => !r.quarantinedAt).length };
  }

  async installed() {
    const rows = await this.deps.store.list();
    return rows
      .filter((r) => !r.quarantinedAt)
      .map((r) => {
        const src = this.source(r.sourceId);
        return {
          id: r.id,
          sourceId: r.sourceId,
          variantKey: r.variantKey,
          bookName: r.bookName,
          fileSizeBytes: r.fileSizeBytes,
          zimDate: r.zimDate,
          downloadedAt: r.downloadedAt,
          verifiedAt: r.verifiedAt,
          label: src?.label ?? r.sourceId,
          description: src?.description ?? '',
          category: src?.category ?? 'Reference',
          bookCategory: src?.bookCategory ?? null,
          faviconUrl: src?.faviconUrl ?? null,
          zimIconUrl: `/api/archives/favicon/${encodeURIComponent(r.sourceId)}`,
          ready: this.books.has(r.sourceId),
        };
      });
  }

  /** The archive's 48x48 illustration (its favicon), cached in memory per source. */
  async favicon(sourceId: string): Promise<{ type: string; body: Buffer } | null> {
    const cached = this.favicons.get(sourceId);
    if (cached) return cached;
    const book = this.books.get(sourceId);
    if (!book) return null;
    const res = await this.deps.kiwix.get(`/catalog/v2/illustration/${encodeURIComponent(book.urlName)}/?size=48`).catch(() => null);
    if (!res) return null;
    if (res.status !== 200) {
      await res.body.dump();
      return null;
    }
    const icon = { type: headerValue(res.headers, 'content-type') ?? 'image/png', body: Buffer.from(await res.body.arrayBuffer()) };
    this.favicons.set(sourceId, icon);
    return icon;
  }

  // ---- companion search ----

  /**
   * Searches the given archives (in the order given = priority) for chat and global search.
   * Returns nothing unless the archive server is ready. Full-text search where the book has an
   * index, else title suggestions (serialized inside the adapter).
   */
  async zimSearch(sourceIds: string[], query: string, limit: number) {
    const empty = { gist: '', highlights: [] as string[], sources: [] as Array<{ sourceId: string; title: string; url: string; snippet: string }> };
    if (this.deps.supervisor.status().state !== 'ready' || !query.trim()) return empty;
    const sources: typeof empty.sources = [];
    for (const sourceId of sourceIds) {
      if (sources.length >= limit) break;
      const book = this.books.get(sourceId);
      if (!book) continue;
      const want = limit - sources.length;
      const link = (p: string) => `/api/archives/view/${encodeURIComponent(sourceId)}/${encodeSegments(p.split('/'))}`;
      try {
        const found = await this.deps.kiwix.search(book, query, want);
        if ('noIndex' in found) {
          for (const s of await this.deps.kiwix.suggest(book, query, want)) sources.push({ sourceId, title: s.title, url: link(s.path), snippet: '' });
        } else {
          for (const h of found.hits) sources.push({ sourceId, title: h.title, url: link(h.path), snippet: h.snippet.replace(/<[^>]+>/g, '').trim() });
        }
      } catch (err) {
        this.deps.logger.warn({ sourceId, err: (err as Error).message }, 'archive search failed');
      }
    }
    const highlights = sources.map((s) => s.snippet).filter(Boolean).slice(0, 3);
    const gist = sources.length ? `${sources[0]!.title}: ${highlights[0] ?? ''}`.trim() : '';
    return { gist, highlights, sources };
  }

  /**
   * Search for the web app (and chat): the given archives in that order, or every installed one
   * in catalog order (the catalog lists the general references first).
   */
  async search(query: string, sourceIds: string[], limit: number) {
    let ids = sourceIds;
    if (ids.length === 0) {
      const installed = new Set((await this.deps.store.list()).filter((r) => !r.quarantinedAt).map((r) => r.sourceId));
      const order = this.deps.catalog.sources.map((s) => s.id);
      ids = [...order.filter((id) => installed.has(id)), ...[...installed].filter((id) => !order.includes(id))];
    }
    return this.zimSearch(ids, query, limit);
  }

  // ---- admin ----

  async catalogView(actor: Actor) {
    assertAdmin(actor);
    const rows = new Map((await this.deps.store.list()).map((r) => [r.sourceId, r]));
    return this.deps.catalog.sources.map((s) => {
      const row = rows.get(s.id);
      return {
        ...s,
        installed: row ? { variantKey: row.variantKey, fileSizeBytes: row.fileSizeBytes, zimDate: row.zimDate, verifiedAt: row.verifiedAt, quarantinedAt: row.quarantinedAt, quarantineReason: row.quarantineReason } : null,
        downloading: this.downloads.has(s.id),
      };
    });
  }

  /** Checks a download can start; throws the HTTP error before any stream is opened. */
  prepareDownload(actor: Actor, sourceId: string, variantKey?: string) {
    assertAdmin(actor);
    if (this.deps.offline) throw new ServiceUnavailableError('offline_mode', 'Hearth is in offline mode, so it will not download archives.');
    const source = this.source(sourceId);
    if (!source) throw new NotFoundError('There is no such archive in the catalog.');
    const variant = variantKey ? source.variants.find((v) => v.key === variantKey) : source.variants[0];
    if (!variant) throw new NotFoundError(`${source.label} has no variant ${variantKey}.`);
    if (this.downloads.has(sourceId)) throw new ConflictError('download_in_progress', `${source.label} is already downloading.`);
    return { source, variant };
  }

  /** Checks there is a running download to watch; throws the HTTP error before any stream is opened. */
  prepareWatch(actor: Actor, sourceId: string) {
    assertAdmin(actor);
    const watch = this.watches.get(sourceId);
    if (!watch) throw new NotFoundError(`${this.source(sourceId)?.label ?? 'This archive'} is not downloading. Start the download from the Archives page.`);
    return watch;
  }

  /** Follows a running download: its last status and progress, then live events until it ends or the watcher leaves. */
  async watchDownload(actor: Actor, sourceId: string, out: DownloadEvents): Promise<void> {
    const watch = this.prepareWatch(actor, sourceId);
    for (const e of watch.latest.values()) out.send(e.event, e.data);
    let listener: ((e: WatchEvent | null) => void) | undefined;
    try {
      await new Promise<void>((resolve) => {
        listener = (e) => (e ? out.send(e.event, e.data) : resolve());
        watch.listeners.add(listener);
        out.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      if (listener) watch.listeners.delete(listener);
    }
  }

  async download(actor: Actor, sourceId: string, variantKey: string | undefined, starter: DownloadEvents): Promise<void> {
    const { variant } = this.prepareDownload(actor, sourceId, variantKey);
    const controller = new AbortController();
    this.downloads.set(sourceId, controller);
    // what the starter is sent, watchers get too (the last status and progress replayed to a late one)
    const watch: DownloadWatch = { latest: new Map(), listeners: new Set() };
    this.watches.set(sourceId, watch);
    const out: DownloadEvents = {
      signal: starter.signal,
      send: (event, data) => {
        starter.send(event, data);
        if (event === 'status' || event === 'progress') watch.latest.set(event, { event, data });
        for (const l of watch.listeners) l({ event, data });
      },
    };
    const signal = AbortSignal.any([controller.signal, out.signal]);
    const fileName = (decodeURIComponent(new URL(variant.url).pathname.split('/').pop() ?? '') || `${sourceId}.zim`).replace(/[^A-Za-z0-9._-]/g, '_');
    const dest = resolveInside(this.sourceDir(sourceId), fileName.endsWith('.zim') ? fileName : `${fileName}.zim`)!;
    try {
      await mkdir(path.dirname(dest), { recursive: true });
      out.send('status', { state: 'downloading', sourceId, variantKey: variant.key, bytesTotal: variant.sizeBytes });
      // archives run to gigabytes: the byte loop runs in a thread of its own, off the server's event loop
      const result = await downloadInWorker({
        guard: this.deps.guard,
        url: variant.url,
        dest,
        expectedBytes: variant.sizeBytes,
        sha256: variant.sha256 ?? null,
        signal,
        stallTimeoutMs: this.deps.stallTimeoutMs ?? 60_000,
        onProgress: progressEvents(out),
      });
      out.send('status', { state: 'verifying' });
      const check = await checkStructure(dest);
      if (!check.ok) {
        await rm(dest, { force: true });
        throw new UnprocessableError('unusable_archive', `The downloaded file is not a usable archive: ${check.reason}`);
      }
      const previous = await this.deps.store.find(sourceId);
      const now = this.now();
      await this.deps.store.upsert(
        { sourceId, variantKey: variant.key, filePath: dest, fileSizeBytes: result.bytes, zimDate: variant.date, downloadedAt: now, verifiedAt: variant.sha256 ? now : null },
        now,
      );
      out.send('status', { state: 'installing' });
      await this.serve();
      if (previous && previous.filePath !== dest) await rm(previous.filePath, { force: true });
      out.send('done', { sourceId, variantKey: variant.key, bytes: result.bytes, sha256: result.sha256, resumedFrom: result.resumedFrom, served: this.books.has(sourceId) });
    } catch (err) {
      if (controller.signal.aborted) {
        await removePartial(dest);
        out.send('cancelled', { sourceId });
      } else if (out.signal.aborted) {
        // the client went away: the partial file stays so a later download resumes
      } else {
        // the starter's stream runner sends the failure; the watchers get the same event
        const failure = downloadFailure(err);
        for (const l of watch.listeners) l({ event: 'error', data: publicError(failure) });
        throw failure;
      }
    } finally {
      this.downloads.delete(sourceId);
      this.watches.delete(sourceId);
      for (const l of watch.listeners) l(null);
    }
  }

  cancel(actor: Actor, sourceId: string): { cancelled: boolean } {
    assertAdmin(actor);
    const c = this.downloads.get(sourceId);
    if (!c) throw new NotFoundError('No download of that archive is running.');
    c.abort();
    return { cancelled: true };
  }

  /** Deletes the row, restarts the server with the rest, and only then removes the file. */
  async remove(actor: Actor, sourceId: string): Promise<{ deleted: true }> {
    assertAdmin(actor);
    const row = await this.deps.store.find(sourceId);
    if (!row) throw new NotFoundError('That archive is not installed.');
    await this.deps.store.delete(sourceId);
    await this.serve();
    await rm(row.filePath, { force: true });
    await removePartial(row.filePath);
    return { deleted: true };
  }

  /** Full check of every archive; damaged ones are quarantined with the reason, the rest re-served. */
  async verify(actor: Actor): Promise<{ results: Array<{ sourceId: string; ok: boolean; reason: string | null }> }> {
    assertAdmin(actor);
    const results: Array<{ sourceId: string; ok: boolean; reason: string | null }> = [];
    for (const row of await this.deps.store.list()) {
      const check = await checkFull(row.filePath);
      const now = this.now();
      if (check.ok) {
        await this.deps.store.update(row.sourceId, { verifiedAt: now, quarantinedAt: null, quarantineReason: null }, now);
        results.push({ sourceId: row.sourceId, ok: true, reason: null });
      } else {
        await this.deps.store.update(row.sourceId, { quarantinedAt: now, quarantineReason: check.reason }, now);
        results.push({ sourceId: row.sourceId, ok: false, reason: check.reason });
      }
    }
    await this.serve();
    return { results };
  }

  async stop(): Promise<void> {
    for (const c of this.downloads.values()) c.abort();
    await this.deps.supervisor.stop();
  }
}
