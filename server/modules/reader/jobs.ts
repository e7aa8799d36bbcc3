// The reader's capture queue. The rows are the queue: archive_state pending/fetching (archive
// jobs) and thumbnail_state pending (thumbnail jobs for live links), so nothing is lost in a
// crash: at start, fetching goes back to pending and the loop picks rows up again. One capture at a
// time (2-core machines; the browser is the heavy part), each into a fresh temp folder that is
// swapped into DATA_DIR/reader/<id>/ only on success. Deleting an item aborts its capture; a
// capture that finishes for a deleted item removes what it wrote. Each capture also keeps a local
// copy of the site's icon in the same folder (favicon.ts); a missing icon never fails a capture.
// A capture starts only when the data disk holds the most it may write beside the reserve.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, copyFileSync, rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../platform/clock.js';
import { NotEnoughDiskError, type DiskSpace } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import type { SsrfGuard } from '../../platform/ssrf.js';
import { CaptureError, phaseClock, type CaptureEngine, type CaptureMode, type CaptureResult, type CaptureTimings } from './capture/types.js';
import { FAVICON_ICO, FAVICON_PNG, saveFavicon } from './favicon.js';
import { archivePublicBase, clientSnapshotFile, contentHash, itemDir, readerRoot } from './files.js';
import { CAPTURE_ROOM_BYTES, type CaptureOutcome, type ItemRecord } from './schema.js';
import type { ReaderStore } from './store.js';

export interface ReaderJobsDeps {
  store: ReaderStore;
  engine: CaptureEngine;
  clock: Clock;
  logger: Logger;
  /** The one SSRF guard: the site's icon is fetched through it. */
  guard: SsrfGuard;
  dataDir: string;
  /** The reserve check every large write makes. */
  disk: DiskSpace;
  /** Pause after an unexpected queue error before looking again. */
  errorBackoffMs?: number;
}

type RunOutcome =
  | { kind: 'ok'; result: CaptureResult; faviconPath: string | null }
  | { kind: 'failed'; error: CaptureError }
  | { kind: 'gone' } // deleted while capturing
  | { kind: 'parked' }; // shutdown: resumes at next start

const EXCERPT_CHARS = 280;
const THUMBNAIL_FILE = 'thumbnail.png';

function excerptOf(result: CaptureResult): string | null {
  if (result.excerpt) return result.excerpt.slice(0, EXCERPT_CHARS);
  const t = result.contentText.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, EXCERPT_CHARS) : null;
}

/** A user-chosen title is kept; an empty one (or the bare URL) is filled from the capture. */
const fillTitle = (item: ItemRecord, found: string | null) => (!item.title || item.title.trim() === '' || item.title === item.url ? (found ?? item.title) : item.title);

export class ReaderCaptureQueue {
  private stopped = true;
  private dirty = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private current: { itemId: string; controller: AbortController } | null = null;
  private lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ReaderJobsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async start(): Promise<void> {
    mkdirSync(readerRoot(this.deps.dataDir), { recursive: true });
    await this.removeLeftovers();
    const n = await this.deps.store.requeueInterrupted();
    if (n) this.deps.logger.info({ n }, 'resuming interrupted captures');
    this.stopped = false;
    this.loop = this.run();
  }

  /** Parks the running capture (it resumes at next start) and stops the loop. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.controller.abort(new Error('shutdown'));
    this.poke();
    await this.loop;
    await this.lock.catch(() => {});
    this.loop = null;
  }

  /** New work was queued. */
  poke(): void {
    this.dirty = true;
    this.wake?.();
  }

  /** The item was deleted: abort its capture if it is the one running. */
  cancel(itemId: string): void {
    if (this.current?.itemId === itemId) this.current.controller.abort(new Error('deleted'));
  }

  get busyWith(): string | null {
    return this.current?.itemId ?? null;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.lock.then(fn, fn);
    this.lock = next.catch(() => {});
    return next;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.dirty = false;
      try {
        const archive = await this.deps.store.nextPendingArchive();
        const thumb = archive ? null : await this.deps.store.nextPendingThumbnail();
        if (archive) await this.exclusive(() => this.archive(archive.id, 'archive')).catch(() => {});
        else if (thumb) await this.exclusive(() => this.thumbnail(thumb.id));
        else if (!this.dirty && !this.stopped) await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
      } catch (err) {
        if (this.stopped) break;
        this.deps.logger.error({ err }, 'reader capture queue error');
        await new Promise((r) => setTimeout(r, this.deps.errorBackoffMs ?? 1000));
      }
    }
  }

  /**
   * Captures the item now (after any capture in progress) and applies the result. Used by the queue
   * and by the change monitor. Throws CaptureError when the capture failed (the item is then
   * failed with archiveError, its previous content and hash untouched), NotFound-ish Error when the
   * item is gone.
   */
  captureNow(itemId: string, reason: 'archive' | 'monitor'): Promise<CaptureOutcome> {
    return this.exclusive(() => this.archive(itemId, reason, true));
  }

  private async archive(itemId: string, reason: 'archive' | 'monitor', anyState = false): Promise<CaptureOutcome> {
    const { store } = this.deps;
    const item = await store.findById(itemId);
    if (!item) throw new CaptureError('cancelled', 'This item no longer exists.');
    const claimed = anyState
      ? await store.update(itemId, { archiveState: 'fetching', archiveError: null, updatedAt: this.now() })
      : await store.updateIfState(itemId, ['pending'], { archiveState: 'fetching', archiveError: null, updatedAt: this.now() });
    if (!claimed) throw new CaptureError('cancelled', 'This item is no longer waiting for a capture.');

    const snapshotFile = clientSnapshotFile(this.deps.dataDir, itemId);
    const clientSnapshot = await readFile(snapshotFile, 'utf8')
      .then((s) => JSON.parse(s) as { html: string; url: string })
      .catch(() => null);
    const out = await this.perform(item, 'archive', clientSnapshot);

    if (out.kind === 'gone') throw new CaptureError('cancelled', 'This item was deleted while it was being captured.');
    if (out.kind === 'parked') {
      await store.updateIfState(itemId, ['fetching'], { archiveState: 'pending' }).catch(() => {});
      throw new CaptureError('cancelled', 'The capture was interrupted by a shutdown; it resumes at the next start.');
    }
    await rm(snapshotFile, { force: true });
    if (out.kind === 'failed') {
      // A challenge page or any other failure leaves the previous content and hash as they were.
      await store.updateIfState(itemId, ['fetching'], { archiveState: 'failed', archiveError: out.error.message, updatedAt: this.now() });
      this.deps.logger.info({ itemId, code: out.error.code, reason }, 'capture failed');
      throw out.error;
    }

    const r = out.result;
    const latest = (await store.findById(itemId)) ?? item;
    const now = this.now();
    const newHash = contentHash(r.contentText);
    const previousHash = latest.contentHash;
    const changed = previousHash !== null && previousHash !== newHash;
    const applied = await store.applyCapture(
      itemId,
      {
        title: fillTitle(latest, r.title),
        byline: r.byline ?? latest.byline,
        siteName: r.siteName ?? latest.siteName,
        faviconUrl: r.faviconUrl ?? latest.faviconUrl,
        excerpt: latest.excerpt ?? excerptOf(r),
        contentHtml: r.contentHtml,
        contentText: r.contentText,
        wordCount: r.wordCount,
        readingMins: r.readingMins,
        contentHash: newHash,
        archiveError: null,
        lastCheckedAt: now,
        contentChangedAt: changed ? now : latest.contentChangedAt,
        snapshotPath: r.snapshotPath,
        screenshotPath: r.screenshotPath,
        ogImagePath: r.ogImagePath,
        faviconPath: out.faviconPath,
        updatedAt: now,
      },
      { itemId, checkedAt: now, changed, wordCount: r.wordCount, previousWordCount: latest.wordCount, excerpt: excerptOf(r) },
    );
    if (!applied) {
      await rm(itemDir(this.deps.dataDir, itemId), { recursive: true, force: true });
      throw new CaptureError('cancelled', 'This item was deleted while it was being captured.');
    }
    return { changed, previousHash, newHash };
  }

  private async thumbnail(itemId: string): Promise<void> {
    const { store } = this.deps;
    const item = await store.findById(itemId);
    if (!item || item.thumbnailState !== 'pending') return;
    const out = await this.perform(item, 'thumbnail', null);
    if (out.kind === 'gone' || out.kind === 'parked') return;
    if (out.kind === 'failed') {
      await store.update(itemId, { thumbnailState: 'failed', updatedAt: this.now() });
      this.deps.logger.info({ itemId, code: out.error.code }, 'thumbnail capture failed');
      return;
    }
    const r = out.result;
    const latest = (await store.findById(itemId)) ?? item;
    const ok = await store.update(itemId, {
      thumbnailState: 'ready',
      title: fillTitle(latest, r.title),
      siteName: latest.siteName ?? r.siteName,
      faviconUrl: r.faviconUrl ?? latest.faviconUrl,
      excerpt: latest.excerpt ?? r.excerpt,
      screenshotPath: r.screenshotPath ?? latest.screenshotPath,
      ogImagePath: r.ogImagePath ?? latest.ogImagePath,
      faviconPath: out.faviconPath,
      updatedAt: this.now(),
    });
    if (!ok) await rm(itemDir(this.deps.dataDir, itemId), { recursive: true, force: true });
  }

  /** Runs the engine into a temp folder and moves its output into place; never throws. */
  private async perform(item: ItemRecord, mode: CaptureMode, clientSnapshot: { html: string; url: string } | null): Promise<RunOutcome> {
    // stop() parks the capture running when it comes; one the loop (or the monitor) was about to
    // begin then is parked before it starts, not run to its end with nothing to cancel it
    if (this.stopped) return { kind: 'parked' };
    const root = readerRoot(this.deps.dataDir);
    try {
      await this.deps.disk.ensureRoom(root, CAPTURE_ROOM_BYTES);
    } catch (err) {
      if (!(err instanceof NotEnoughDiskError)) throw err;
      return { kind: 'failed', error: new CaptureError('disk_full', 'The data disk is nearly full, so Hearth did not save this page. Free some space on it, then capture the page again.') };
    }
    const tmp = path.join(root, `${item.id}.tmp-${randomBytes(6).toString('hex')}`);
    mkdirSync(tmp, { recursive: true });
    const controller = new AbortController();
    this.current = { itemId: item.id, controller };
    const parkedOrGone = (): RunOutcome => ((controller.signal.reason as Error | undefined)?.message === 'deleted' ? { kind: 'gone' } : { kind: 'parked' });
    let result: CaptureResult;
    let faviconPath: string | null;
    try {
      const timings: CaptureTimings = {};
      result = await this.deps.engine.capture({ url: item.url, logId: item.id, mode, outDir: tmp, publicBase: archivePublicBase(item.id), clientSnapshot, signal: controller.signal, timings });
      const lap = phaseClock(timings);
      // the engine reports the declared icon, else /favicon.ico on the page's origin
      faviconPath = await saveFavicon({ guard: this.deps.guard, logger: this.deps.logger, logId: item.id }, result.faviconUrl, tmp, controller.signal);
      lap('icon');
      // where the time went, by phase (ms); the item's id, never its address
      this.deps.logger.info({ itemId: item.id, mode, method: result.method, timings }, 'capture phases');
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      if (controller.signal.aborted) return parkedOrGone();
      if (err instanceof CaptureError) return { kind: 'failed', error: err };
      this.deps.logger.error({ err, itemId: item.id }, 'capture engine error');
      return { kind: 'failed', error: new CaptureError('unreachable', 'The page could not be captured.') };
    } finally {
      this.current = null;
    }
    if (controller.signal.aborted) {
      await rm(tmp, { recursive: true, force: true });
      return parkedOrGone();
    }
    // From here to the end of the swap nothing awaits, so a delete cannot interleave with it.
    const final = itemDir(this.deps.dataDir, item.id);
    // An icon that could not be fetched this time keeps the one saved before, if any.
    const previousIcon = item.faviconPath === FAVICON_PNG || item.faviconPath === FAVICON_ICO ? item.faviconPath : null;
    let old: string | null = null;
    try {
      if (mode === 'archive') {
        if (existsSync(path.join(final, THUMBNAIL_FILE)) && !existsSync(path.join(tmp, THUMBNAIL_FILE))) copyFileSync(path.join(final, THUMBNAIL_FILE), path.join(tmp, THUMBNAIL_FILE));
        if (!faviconPath && previousIcon && existsSync(path.join(final, previousIcon))) {
          copyFileSync(path.join(final, previousIcon), path.join(tmp, previousIcon));
          faviconPath = previousIcon;
        }
        if (existsSync(final)) {
          old = `${final}.old-${randomBytes(6).toString('hex')}`;
          renameSync(final, old);
        }
        renameSync(tmp, final);
      } else {
        // A thumbnail capture adds its images beside an existing archive instead of replacing it.
        mkdirSync(final, { recursive: true });
        for (const name of readdirSync(tmp)) renameSync(path.join(tmp, name), path.join(final, name));
        if (faviconPath && previousIcon && previousIcon !== faviconPath) rmSync(path.join(final, previousIcon), { force: true });
        if (!faviconPath && previousIcon && existsSync(path.join(final, previousIcon))) faviconPath = previousIcon;
      }
    } catch (err) {
      this.deps.logger.error({ err, itemId: item.id }, 'could not move a capture into place');
      if (old && !existsSync(final)) renameSync(old, final);
      await rm(tmp, { recursive: true, force: true });
      return { kind: 'failed', error: new CaptureError('unreachable', 'The capture could not be saved to disk.') };
    }
    if (old) await rm(old, { recursive: true, force: true });
    await rm(tmp, { recursive: true, force: true });
    return { kind: 'ok', result, faviconPath };
  }

  /** Temp and replaced folders left by a crash. */
  private async removeLeftovers(): Promise<void> {
    const root = readerRoot(this.deps.dataDir);
    for (const name of readdirSync(root)) {
      if (/\.(tmp|old)-[0-9a-f]+$/.test(name)) await rm(path.join(root, name), { recursive: true, force: true });
    }
  }
}
