// Moving a member's library in and out: bookmarks.html import (parsed, checked and written in
// slices so other requests keep being served) and the bookmarks.html and JSON exports (written
// out a page at a time).
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { UserActor } from '../../actor.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { ReaderAccess, Viewer } from './access-service.js';
import { BOOKMARKS_HTML_END, BOOKMARKS_HTML_FOLDER_CLOSE, bookmarksHtmlEntry, bookmarksHtmlFolderOpen, bookmarksHtmlHead } from './bookmarks-html-write.js';
import type { ReaderCollectionsService } from './collections-service.js';
import type { ReaderCaptureQueue } from './jobs.js';
import { MAX_TAG_CHARS, MAX_TAGS_PER_ITEM, MAX_TITLE_CHARS, type ImportProgress, type ImportSummary, type ItemType } from './schema.js';
import { newItemRecord, type NewItem } from './item-rows.js';
import type { ReaderStore } from './store.js';

/**
 * An import that stopped midway: the stream's `error` event carries `imported` (the runner adds an
 * error's details to it, see SseRegistry.run). Every progress event counts links already
 * committed, so the count is exact, and importing the same file again skips them.
 */
export class ImportFailedError extends AppError {
  constructor(imported: number) {
    super(
      500,
      'import_failed',
      `The import stopped because of an error on the server after ${imported} ${imported === 1 ? 'link was' : 'links were'} saved. Import the same file again to add the rest: links already saved are skipped.`,
      { imported },
    );
  }
}

/** About how long one import chunk may hold the event loop before other requests get their turn. */
export const IMPORT_SLICE_MS = 12;
const IMPORT_FIRST_BATCH = 50;
const IMPORT_MIN_BATCH = 10;
const IMPORT_MAX_BATCH = 1000;
const URL_CHECK_BATCH = 500;
/** Items read and written per page of an export. */
const EXPORT_PAGE = 100;

export interface ReaderTransferDeps {
  store: ReaderStore;
  access: ReaderAccess;
  collections: ReaderCollectionsService;
  queue: ReaderCaptureQueue;
  clock: Clock;
  logger: Logger;
}

export class ReaderTransferService {
  constructor(private readonly deps: ReaderTransferDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /**
   * bookmarks.html import: every link becomes an own item (live unless type is offline, so an
   * import does not start a capture storm), the nearest folder its collection (created or reused),
   * TAGS its tags, ADD_DATE its createdAt. URLs already saved (or repeated in the file) count as
   * duplicates; broken entries are reported per row.
   *
   * better-sqlite3 answers synchronously, so a loop of awaited queries never lets the event loop
   * reach I/O: the file is parsed, checked and written in chunks of about IMPORT_SLICE_MS, with a
   * turn of the event loop (setImmediate) between chunks, so every other request keeps being
   * served while a large file imports. Each written chunk is its own transaction (an item and its
   * tags together, never half), followed by a progress event counting what is saved; if the import
   * stops (an error, the client gone, a crash), the chunks already reported stay saved and
   * importing the same file again adds only the rest (saved links count as duplicates).
   */
  async importHtml(actor: UserActor, html: string, type: ItemType, onProgress: (p: ImportProgress) => void, signal?: AbortSignal): Promise<ImportSummary> {
    const summary: ImportSummary = { imported: 0, skipped: 0, duplicates: 0, collections: [], errors: [] };
    try {
      return await this.importRows(actor, html, type, summary, onProgress, signal);
    } catch (err) {
      // the cause is logged here, with its stack; the client learns only how many links are saved
      this.deps.logger.error({ err }, 'bookmarks import failed');
      throw new ImportFailedError(summary.imported);
    }
  }

  private async importRows(
    actor: UserActor,
    html: string,
    type: ItemType,
    summary: ImportSummary,
    onProgress: (p: ImportProgress) => void,
    signal: AbortSignal | undefined,
  ): Promise<ImportSummary> {
    // the parser (and htmlparser2) is loaded by the first import, not at start
    const { parseBookmarksHtmlInSlices } = await import('./bookmarks-html.js');
    const parsed = await parseBookmarksHtmlInSlices(html, IMPORT_SLICE_MS);
    const urls = parsed.rows.flatMap((r) => (r.kind === 'bookmark' ? [r.url] : []));
    const existing = new Set<string>();
    for (let i = 0; i < urls.length; i += URL_CHECK_BATCH) {
      if (signal?.aborted) return summary;
      for (const u of await this.deps.store.existingUrls(actor.id, urls.slice(i, i + URL_CHECK_BATCH))) existing.add(u);
      await nextTurn();
    }
    const collectionIds = new Map<string, string>();
    const now = this.now();
    let batchSize = IMPORT_FIRST_BATCH;
    let processed = 0;
    for (let i = 0; i < parsed.rows.length; ) {
      if (signal?.aborted) break;
      const started = performance.now();
      const batch: Array<{ item: NewItem; tags: string[] }> = [];
      for (; i < parsed.rows.length && batch.length < batchSize; i++) {
        const row = parsed.rows[i]!;
        processed++;
        if (row.kind === 'error') {
          if (row.code === 'duplicate') summary.duplicates++;
          else {
            summary.skipped++;
            summary.errors.push({ index: row.index, title: row.title, url: row.url, reason: row.reason });
          }
          continue;
        }
        if (existing.has(row.url)) {
          summary.duplicates++;
          continue;
        }
        existing.add(row.url);
        let collectionId: string | null = null;
        if (row.folder) {
          const name = row.folder.slice(0, 100);
          if (!collectionIds.has(name.toLowerCase())) {
            collectionIds.set(name.toLowerCase(), (await this.deps.collections.resolve(actor, undefined, name))!);
            summary.collections.push(name);
          }
          collectionId = collectionIds.get(name.toLowerCase())!;
        }
        const created = row.addDate ? row.addDate.toISOString() : now;
        batch.push({
          item: {
            ...newItemRecord({ ownerId: actor.id, type, url: row.url }, now),
            title: row.title.trim().slice(0, MAX_TITLE_CHARS) || null,
            excerpt: row.description,
            collectionId,
            status: row.archived ? 'archived' : 'unread',
            // imported live links are not screenshotted one by one; offline ones are archived
            thumbnailState: 'none',
            createdAt: created,
            updatedAt: now,
          },
          tags: [...new Set(row.tags.map((t) => t.replace(/\s+/g, ' ').trim().slice(0, MAX_TAG_CHARS)).filter(Boolean))].slice(0, MAX_TAGS_PER_ITEM),
        });
      }
      if (batch.length) await this.deps.store.insertMany(batch, now);
      summary.imported += batch.length;
      onProgress({ processed, total: parsed.total, imported: summary.imported, skipped: summary.skipped + summary.duplicates });
      // the next chunk is sized so that writing it takes about IMPORT_SLICE_MS on this machine
      const ms = performance.now() - started;
      if (ms < IMPORT_SLICE_MS / 2) batchSize = Math.min(IMPORT_MAX_BATCH, batchSize * 2);
      else if (ms > IMPORT_SLICE_MS) batchSize = Math.max(IMPORT_MIN_BATCH, Math.floor(batchSize / 2));
      await nextTurn();
    }
    if (type === 'offline' && summary.imported) this.deps.queue.poke();
    return summary;
  }

  /**
   * bookmarks.html of the user's live links (spec: live links only), as text pieces: folders in
   * the order their first link was saved, then the links without a collection. Rows are read
   * EXPORT_PAGE at a time with a turn of the event loop between pages, so a large library does
   * not hold up other requests while it is written out.
   */
  async *exportHtml(actor: UserActor): AsyncGenerator<string> {
    const [order, collections] = await Promise.all([this.deps.store.exportOrder(actor.id, 'live'), this.deps.collections.list(actor)]);
    const names = new Map(collections.map((c) => [c.id, c.name.trim()]));
    const folders = new Map<string, { firstAdded: Date; seqs: number[] }>();
    const loose: number[] = [];
    for (const row of order) {
      const name = row.collectionId ? names.get(row.collectionId) : undefined;
      if (!name) loose.push(row.seq);
      else if (folders.has(name)) folders.get(name)!.seqs.push(row.seq);
      else folders.set(name, { firstAdded: new Date(row.createdAt), seqs: [row.seq] });
    }
    yield bookmarksHtmlHead();
    for (const [name, folder] of folders) {
      yield bookmarksHtmlFolderOpen(name, Number.isNaN(folder.firstAdded.getTime()) ? null : folder.firstAdded);
      yield* this.htmlEntries(folder.seqs, true);
      yield BOOKMARKS_HTML_FOLDER_CLOSE;
    }
    yield* this.htmlEntries(loose, false);
    yield BOOKMARKS_HTML_END;
  }

  /** The bookmarks.html entries of these rows, EXPORT_PAGE at a time. */
  private async *htmlEntries(seqs: number[], inFolder: boolean): AsyncGenerator<string> {
    for (let i = 0; i < seqs.length; i += EXPORT_PAGE) {
      const items = await this.deps.store.fullBySeqs(seqs.slice(i, i + EXPORT_PAGE));
      const tags = await this.deps.store.tagsFor(items.map((it) => it.id));
      yield items
        .map((it) =>
          bookmarksHtmlEntry(
            { title: it.title, url: it.url, addDate: new Date(it.createdAt), tags: tags.get(it.id) ?? [], collectionName: null, description: it.excerpt },
            inFolder,
          ),
        )
        .join('');
      await nextTurn();
    }
  }

  /**
   * Everything the user saved, offline content included, so nothing is lost when they leave: one
   * JSON document written as text pieces, the items EXPORT_PAGE at a time with a turn of the event
   * loop between pages (see exportHtml).
   */
  async *exportJson(actor: UserActor): AsyncGenerator<string> {
    const [order, collections, tagList, hidden] = await Promise.all([
      this.deps.store.exportOrder(actor.id),
      this.deps.collections.list(actor),
      this.deps.collections.listTags(actor),
      this.deps.access.hiddenIds(actor.id),
    ]);
    const names = new Map(collections.map((c) => [c.id, c.name]));
    const viewer: Viewer = { kind: 'user', actor };
    const hiddenSet = new Set(hidden);
    const head = JSON.stringify({ version: 1, exportedAt: this.now(), collections, tags: tagList });
    yield `${head.slice(0, -1)},"items":[`;
    for (let i = 0; i < order.length; i += EXPORT_PAGE) {
      const items = await this.deps.store.fullBySeqs(order.slice(i, i + EXPORT_PAGE).map((r) => r.seq));
      const tags = await this.deps.store.tagsFor(items.map((it) => it.id));
      const page = items.map((it) =>
        JSON.stringify({
          ...this.deps.access.decorate(it, viewer, hiddenSet, tags.get(it.id) ?? []),
          // the site's own icon address: Hearth's copy means nothing outside Hearth
          faviconUrl: it.faviconUrl,
          contentHtml: it.contentHtml,
          contentText: it.contentText,
          collectionName: it.collectionId ? (names.get(it.collectionId) ?? null) : null,
        }),
      );
      yield `${i === 0 ? '' : ','}${page.join(',')}`;
      await nextTurn();
    }
    yield ']}';
  }
}
