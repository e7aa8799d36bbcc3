// Downloading archives (admin): the catalog as the admin sees it (what is installed, what is
// downloading), starting a download (resume, checksum, structural check, then served), following a
// running one from another page, and cancelling. Which archives are served is ArchivesService's.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { assertAdmin, type Actor } from '../../actor.js';
import { removePartial } from '../../adapters/web/download.js';
import { downloadInWorker } from '../../adapters/web/download-worker.js';
import { ConflictError, NotFoundError, publicError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { downloadFailure, progressEvents, type EventSink, type Sent } from './download-events.js';
import type { ArchiveCatalog, ArchiveDownloadEvents, ArchiveStreamError, CatalogSource } from './schema.js';
import type { ArchivesService } from './service.js';
import type { ArchivesStore } from './store.js';
import { checkStructure } from './zim-check.js';

export interface ArchiveDownloadsDeps {
  /** Serves the archives again once a download is in place, and says whether it is served. */
  archives: Pick<ArchivesService, 'serve' | 'book'>;
  store: ArchivesStore;
  catalog: ArchiveCatalog;
  guard: SsrfGuard;
  dataDir: string;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
  clock: Clock;
  stallTimeoutMs?: number;
}

/** What a download's starter and watchers are sent (watchers also get its failure as `error`). */
type DownloadEvent = Sent<ArchiveDownloadEvents & { error: ArchiveStreamError }>;
type DownloadSink = EventSink<ArchiveDownloadEvents & { error: ArchiveStreamError }>;
interface DownloadWatch {
  /** The last status and progress, replayed to a late watcher. */
  latest: Map<string, DownloadEvent>;
  /** Called with each event, then with null when the download is over. */
  listeners: Set<(e: DownloadEvent | null) => void>;
}

export class ArchiveDownloadsService {
  private readonly downloads = new Map<string, AbortController>();
  /** sourceId -> who follows its running download (GET /download/:sourceId). */
  private readonly watches = new Map<string, DownloadWatch>();

  constructor(private readonly deps: ArchiveDownloadsDeps) {}

  isDownloading(sourceId: string): boolean {
    return this.downloads.has(sourceId);
  }

  private source(sourceId: string): CatalogSource | null {
    return this.deps.catalog.sources.find((s) => s.id === sourceId) ?? null;
  }

  async catalogView(actor: Actor) {
    assertAdmin(actor);
    const rows = new Map((await this.deps.store.list()).map((r) => [r.sourceId, r]));
    return this.deps.catalog.sources.map((s) => {
      const row = rows.get(s.id);
      return {
        ...s,
        installed: row ? { variantKey: row.variantKey, fileSizeBytes: row.fileSizeBytes, zimDate: row.zimDate, verifiedAt: row.verifiedAt, quarantinedAt: row.quarantinedAt, quarantineReason: row.quarantineReason, level: row.contentLevel } : null,
        downloading: this.downloads.has(s.id),
      };
    });
  }

  /** Checks a download can start; throws the HTTP error before any stream is opened. */
  prepareDownload(actor: Actor, sourceId: string, variantKey?: string) {
    assertAdmin(actor);
    if (this.deps.offline.isOn()) throw new ServiceUnavailableError('offline_mode', 'Hearth is in offline mode, so it will not download archives.');
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
  async watchDownload(actor: Actor, sourceId: string, out: DownloadSink): Promise<void> {
    const watch = this.prepareWatch(actor, sourceId);
    for (const e of watch.latest.values()) out.send(...e);
    let listener: ((e: DownloadEvent | null) => void) | undefined;
    try {
      await new Promise<void>((resolve) => {
        listener = (e) => (e ? out.send(...e) : resolve());
        watch.listeners.add(listener);
        out.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    } finally {
      if (listener) watch.listeners.delete(listener);
    }
  }

  async download(actor: Actor, sourceId: string, variantKey: string | undefined, starter: EventSink<ArchiveDownloadEvents>): Promise<void> {
    const { variant } = this.prepareDownload(actor, sourceId, variantKey);
    const controller = new AbortController();
    this.downloads.set(sourceId, controller);
    // what the starter is sent, watchers get too (the last status and progress replayed to a late one)
    const watch: DownloadWatch = { latest: new Map(), listeners: new Set() };
    this.watches.set(sourceId, watch);
    const out: EventSink<ArchiveDownloadEvents> = {
      signal: starter.signal,
      send: (...e) => {
        starter.send(...e);
        if (e[0] === 'status' || e[0] === 'progress') watch.latest.set(e[0], e);
        for (const l of watch.listeners) l(e);
      },
    };
    const signal = AbortSignal.any([controller.signal, out.signal]);
    const fileName = (decodeURIComponent(new URL(variant.url).pathname.split('/').pop() ?? '') || `${sourceId}.zim`).replace(/[^A-Za-z0-9._-]/g, '_');
    const dest = resolveInside(path.join(this.deps.dataDir, 'archives', sourceId), fileName.endsWith('.zim') ? fileName : `${fileName}.zim`)!;
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
      const now = this.deps.clock.now().toISOString();
      await this.deps.store.upsert(
        { sourceId, variantKey: variant.key, filePath: dest, fileSizeBytes: result.bytes, zimDate: variant.date, downloadedAt: now, verifiedAt: variant.sha256 ? now : null },
        now,
      );
      out.send('status', { state: 'installing' });
      await this.deps.archives.serve();
      if (previous && previous.filePath !== dest) await rm(previous.filePath, { force: true });
      out.send('done', { sourceId, variantKey: variant.key, bytes: result.bytes, sha256: result.sha256, resumedFrom: result.resumedFrom, served: this.deps.archives.book(sourceId) !== undefined });
    } catch (err) {
      if (controller.signal.aborted) {
        await removePartial(dest);
        out.send('cancelled', { sourceId });
      } else if (out.signal.aborted) {
        // the client went away: the partial file stays so a later download resumes
      } else {
        // the starter's stream runner sends the failure; the watchers get the same event
        const failure = downloadFailure(err);
        for (const l of watch.listeners) l(['error', publicError(failure)]);
        throw failure;
      }
    } finally {
      this.downloads.delete(sourceId);
      this.watches.delete(sourceId);
      for (const l of watch.listeners) l(null);
    }
  }

  cancel(actor: Actor, sourceId: string): { cancelled: true } {
    assertAdmin(actor);
    const c = this.downloads.get(sourceId);
    if (!c) throw new NotFoundError('No download of that archive is running.');
    c.abort();
    return { cancelled: true };
  }

  /** Stops every running download (the server is closing); their partial files are removed like a cancel's. */
  stop(): void {
    for (const c of this.downloads.values()) c.abort();
  }
}
