// Reference archives: which archives are installed, the archive server that serves them (through
// the one supervisor), favicons, companion search, and the admin's delete and verify (with
// quarantine). Elsewhere in this module: downloads-service.ts (the admin catalog, download, watch, cancel),
// content-service.ts (the content proxy), runtime-service.ts (installing the archive server itself).
import { rm } from 'node:fs/promises';
import { assertAdmin, type Actor, type UserActor } from '../../actor.js';
import type { CatalogBook, KiwixClient } from '../../adapters/archive-server/kiwix.js';
import { archiveServerAppError, archiveServerFailureKind } from '../../adapter-errors/archive-server.js';
import { removePartial } from '../../adapters/web/download.js';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { withoutUrls, type Logger } from '../../platform/logger.js';
import type { ArchiveServerConfig } from '../../platform/sidecars/archive-server.js';
import type { ProcessSupervisor, SidecarStatus } from '../../platform/sidecars/supervisor.js';
import type { Level } from '../content/schema.js';
import { allows } from '../content/public.js';
import { AVAILABLE, unavailable, type Availability } from '../tools/schema.js';
import type { ArchiveEntryCache } from './entry-cache.js';
import { encodeSegments, headerValue, pathFromLocation } from './proxy.js';
import { MAX_REDIRECT_HOPS, type ArchiveCatalog, type ArchiveRecord, type ArchivesStatus, type CatalogSource } from './schema.js';
import type { ArchivesStore } from './store.js';
import { checkFull, checkStructure } from './zim-check.js';

export interface ArchivesDeps {
  store: ArchivesStore;
  catalog: ArchiveCatalog;
  supervisor: ProcessSupervisor<ArchiveServerConfig>;
  kiwix: KiwixClient;
  isInstalled: () => boolean;
  clock: Clock;
  logger: Logger;
  /** The content proxy's memory cache of entries (emptied whenever the served archives change). */
  cache: ArchiveEntryCache;
  /** The member's Archives level (content dials): an archive marked above it is hidden from them. */
  archivesLevel(actor: UserActor): Promise<Level>;
}

export class ArchivesService {
  /** sourceId -> the book as the running server lists it. */
  private books = new Map<string, CatalogBook>();
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

  private source(sourceId: string): CatalogSource | null {
    return this.deps.catalog.sources.find((s) => s.id === sourceId) ?? null;
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
      const entries = await this.deps.kiwix.catalog().catch((err: unknown) => {
        throw archiveServerAppError(err);
      });
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

  async statusView(): Promise<ArchivesStatus> {
    const s = this.status();
    const rows = await this.deps.store.list();
    return { kiwixInstalled: s.installed, kiwixState: s.state, kiwixError: s.error, installedCount: rows.filter((r) => !r.quarantinedAt).length };
  }

  /** Whether the installed archives can be read and searched now (the Library and archive search). */
  async readiness(): Promise<Availability> {
    return archiveReadiness(await this.statusView());
  }

  /** The healthy installed archives the member may see (their Archives level allows each one's). */
  private async visible(actor: UserActor): Promise<ArchiveRecord[]> {
    const [rows, level] = await Promise.all([this.deps.store.list(), this.deps.archivesLevel(actor)]);
    return rows.filter((r) => !r.quarantinedAt && allows(level, r.contentLevel));
  }

  /** GET /api/archives/installed: what the member sees, and whether their content level left any out. */
  async installedView(actor: UserActor) {
    const [rows, level] = await Promise.all([this.deps.store.list(), this.deps.archivesLevel(actor)]);
    const healthy = rows.filter((r) => !r.quarantinedAt);
    const shown = healthy.filter((r) => allows(level, r.contentLevel));
    return { archives: this.describe(shown), hiddenByContent: shown.length < healthy.length };
  }

  private describe(rows: ArchiveRecord[]) {
    return rows
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
          level: r.contentLevel,
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
        this.deps.logger.warn({ sourceId, failure: archiveServerFailureKind(err), err: withoutUrls((err as Error).message) }, 'archive search failed');
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
  async search(actor: UserActor, query: string, sourceIds: string[], limit: number) {
    const installed = new Set((await this.visible(actor)).map((r) => r.sourceId));
    // an archive the member may not see is searched as if it were not there
    let ids = sourceIds.filter((id) => installed.has(id));
    if (sourceIds.length === 0) {
      const order = this.deps.catalog.sources.map((s) => s.id);
      ids = [...order.filter((id) => installed.has(id)), ...[...installed].filter((id) => !order.includes(id))];
    }
    return this.zimSearch(ids, query, limit);
  }

  /**
   * Unified search and chat's archive_search: titles (suggest) and full text (search, where the
   * book has an index) of every installed archive in catalog order, title matches first, one
   * entry per article. `path` is the article's path inside its archive (not encoded). Nothing
   * while the archive server is not ready: ask readiness() why.
   */
  async findArticles(actor: UserActor, query: string, limit: number): Promise<Array<{ sourceId: string; label: string; title: string; path: string; snippet: string | null }>> {
    const out: Array<{ sourceId: string; label: string; title: string; path: string; snippet: string | null }> = [];
    if (this.deps.supervisor.status().state !== 'ready' || !query.trim()) return out;
    const installed = new Set((await this.visible(actor)).map((r) => r.sourceId));
    const order = this.deps.catalog.sources.map((s) => s.id);
    const ids = [...order.filter((id) => installed.has(id)), ...[...installed].filter((id) => !order.includes(id))];
    const per = await Promise.all(
      ids.map(async (sourceId) => {
        const book = this.books.get(sourceId);
        if (!book) return [];
        const label = this.source(sourceId)?.label ?? book.title ?? sourceId;
        const [titles, text] = await Promise.all([
          this.deps.kiwix.suggest(book, query, limit).catch((err: Error) => {
            this.deps.logger.warn({ sourceId, failure: archiveServerFailureKind(err), err: withoutUrls(err.message) }, 'archive title search failed');
            return [];
          }),
          this.deps.kiwix.search(book, query, limit).catch((err: Error) => {
            this.deps.logger.warn({ sourceId, failure: archiveServerFailureKind(err), err: withoutUrls(err.message) }, 'archive search failed');
            return { noIndex: true as const };
          }),
        ]);
        const hits = 'noIndex' in text ? [] : text.hits;
        const snippets = new Map(hits.map((h) => [h.path, h.snippet.replace(/<[^>]+>/g, '').trim() || null]));
        const seen = new Set<string>();
        const found: typeof out = [];
        for (const t of [...titles.map((s) => ({ title: s.title, path: s.path })), ...hits]) {
          if (seen.has(t.path)) continue;
          seen.add(t.path);
          found.push({ sourceId, label, title: t.title, path: t.path, snippet: snippets.get(t.path) ?? null });
        }
        return found;
      }),
    );
    // in turns, so every archive is heard: each archive's best, the general references first
    for (let i = 0; out.length < limit && per.some((list) => list.length > i); i++) {
      for (const list of per) if (list[i] && out.length < limit) out.push(list[i]!);
    }
    return out;
  }

  /**
   * One article of a served archive by its exact title (Today's offline "on this day" reads
   * Wikipedia's day article, e.g. "May 20"): found through the title index (suggest), redirects
   * followed inside the book. Null while the archive is not served or has no article of that title.
   */
  async articleByTitle(sourceId: string, title: string): Promise<{ path: string; html: string } | null> {
    const book = this.books.get(sourceId);
    if (!book || this.deps.supervisor.status().state !== 'ready') return null;
    const wanted = title.replace(/_/g, ' ').trim().toLowerCase();
    const hit = (await this.deps.kiwix.suggest(book, title.replace(/_/g, ' '), 10)).find((s) => s.title.replace(/_/g, ' ').trim().toLowerCase() === wanted);
    if (!hit) return null;
    let path = hit.path;
    for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
      const res = await this.deps.kiwix.get(`${book.href}/${encodeSegments(path.split('/'))}`);
      if (res.status >= 300 && res.status < 400) {
        await res.body.dump();
        const location = headerValue(res.headers, 'location');
        const target = location ? pathFromLocation(location, book.href) : null;
        if (!target) return null;
        path = target.join('/');
        continue;
      }
      if (res.status !== 200) {
        await res.body.dump();
        return null;
      }
      return { path, html: await res.body.text() };
    }
    return null;
  }

  // ---- admin: content level, delete and verify ----

  /** PUT /api/admin/content/archives/:sourceId: the level a member needs to see the archive. */
  async setContentLevel(actor: Actor, sourceId: string, level: Level): Promise<{ sourceId: string; level: Level }> {
    assertAdmin(actor);
    if (!(await this.deps.store.setContentLevel(sourceId, level, this.now()))) throw new NotFoundError('That archive is not installed.');
    return { sourceId, level };
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
    await this.deps.supervisor.stop();
  }
}

/** What the archive status means for the household: an archive to read, and the server running it. */
export function archiveReadiness(s: ArchivesStatus): Availability {
  if (s.installedCount === 0) return unavailable('No archive is installed yet.', 'Install an archive from Admin › Archives.');
  if (!s.kiwixInstalled) return unavailable('The archive server (kiwix-serve) is not installed on the Hearth computer.', 'Install it from Admin › Archives.');
  if (s.kiwixState === 'ready') return AVAILABLE;
  if (s.kiwixState === 'starting') return unavailable('The archive server is still starting.', 'Look again in a minute.');
  return unavailable(s.kiwixError ?? 'The archive server is not running.', 'Open Admin › Archives to see what went wrong and start it again.');
}
