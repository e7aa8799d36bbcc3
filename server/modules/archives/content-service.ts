// The content proxy behind /api/archives/view/:sourceId/: one book's pages, search and random from
// the archive server, redirects followed inside the book, pages rewritten for the reader (with a
// per-request nonce), entries kept in the memory cache, and a friendly page whenever the archive
// cannot be shown. Which archives are served is the archives service's (ArchivesService.serve).
import { randomUUID } from 'node:crypto';
import type { CatalogBook, KiwixClient, RawResponse } from '../../adapters/archive-server/kiwix.js';
import type { ArchiveServerConfig } from '../../platform/sidecars/archive-server.js';
import type { ProcessSupervisor } from '../../platform/sidecars/supervisor.js';
import type { ArchiveEntryCache, CachedEntry } from './entry-cache.js';
import { archiveContentCsp, decodeSegments, encodeSegments, friendlyPage, headerValue as header, injection, pathFromLocation, preparePage, rewriteHtml } from './proxy.js';
import { MAX_REDIRECT_HOPS } from './schema.js';
import type { ArchiveDownloadsService } from './downloads-service.js';
import type { ArchivesService } from './service.js';
import type { ArchivesStore } from './store.js';

export interface ArchiveContentDeps {
  /** Which books the running archive server lists. */
  archives: Pick<ArchivesService, 'book'>;
  /** Which archives are downloading (their page says so and tries again). */
  downloads: Pick<ArchiveDownloadsService, 'isDownloading'>;
  store: ArchivesStore;
  supervisor: ProcessSupervisor<ArchiveServerConfig>;
  kiwix: KiwixClient;
  /** The memory cache of entries (emptied by ArchivesService.serve whenever the served archives change). */
  cache: ArchiveEntryCache;
}

export type ViewResult =
  | { kind: 'page'; status: number; html: string; headers?: Record<string, string> }
  /** A body read whole; a page is sent as its parts (the cached rewrite around this request's injection). */
  | { kind: 'body'; status: number; body: Buffer | Buffer[]; headers: Record<string, string> }
  | { kind: 'stream'; status: number; headers: Record<string, string>; body: RawResponse['body'] };

const FORWARD_HEADERS = ['content-type', 'content-length', 'cache-control', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/** The headers of a rewritten archive page. */
function htmlHeaders(length: number, cacheControl: string | undefined, nonce: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(length),
    'Cache-Control': cacheControl ?? 'no-cache',
    // sandboxed in an opaque origin: see archiveContentCsp
    'Content-Security-Policy': archiveContentCsp(nonce),
    'X-Frame-Options': 'SAMEORIGIN',
    Vary: 'Cookie',
  };
}

export class ArchiveContentService {
  constructor(private readonly deps: ArchiveContentDeps) {}

  private notReady(dark: boolean, message: string, retrySeconds = 3): ViewResult {
    return { kind: 'page', status: 503, html: friendlyPage({ title: 'The library is getting ready', message, retrySeconds, dark }), headers: { 'Retry-After': String(retrySeconds) } };
  }

  /** The friendly page for an archive that cannot be shown right now, or null when it can. */
  private async whyNotServed(sourceId: string, dark: boolean): Promise<ViewResult | null> {
    const row = await this.deps.store.find(sourceId);
    if (!row || row.quarantinedAt) {
      // while it downloads, the page tries again by itself and opens once the archive is served
      if (this.deps.downloads.isDownloading(sourceId)) return this.notReady(dark, 'This archive is still downloading. It opens here once it is ready.', 10);
      return { kind: 'page', status: 404, html: friendlyPage({ title: 'This archive is not installed', message: 'An admin can install it from the Archives page.', dark }) };
    }
    const state = this.deps.supervisor.status().state;
    if (state === 'starting') return this.notReady(dark, 'The archive server is starting. This takes a moment.');
    if (state !== 'ready') return this.notReady(dark, 'The archive server is not running right now. Hearth will keep trying.');
    if (!row.bookName || !this.deps.archives.book(sourceId)) return this.notReady(dark, 'This archive is being opened.');
    return null;
  }

  /**
   * Serves one request under /api/archives/view/:sourceId/. `rawPath` is the still-encoded path
   * after the source id. Only this book's content (and its search and random) is ever reached.
   */
  async view(sourceId: string, rawPath: string, query: URLSearchParams, opts: { dark: boolean; followDevice?: boolean; range?: string }): Promise<ViewResult> {
    const dark = opts.dark;
    const theme = { dark, followDevice: opts.followDevice };
    // Fast path: a book the running server lists was read from a healthy row by serve(), which
    // every change to the rows (download, delete, verify) goes through; no database read per page.
    const book = this.deps.archives.book(sourceId);
    if (!book || this.deps.supervisor.status().state !== 'ready') {
      const notServed = await this.whyNotServed(sourceId, dark);
      if (notServed) return notServed;
    }
    if (!book) return this.notReady(dark, 'This archive is being opened.');

    const viewBase = `/api/archives/view/${encodeURIComponent(sourceId)}/`;
    let upstream: string;
    if (rawPath === 'search') {
      const pattern = (query.get('pattern') ?? '').trim();
      if (!pattern) return { kind: 'page', status: 400, html: friendlyPage({ title: 'Search', message: 'Type something to search for.', dark }) };
      const q = new URLSearchParams({ content: book.urlName, pattern });
      for (const k of ['start', 'pageLength']) if (/^\d{1,6}$/.test(query.get(k) ?? '')) q.set(k, query.get(k)!);
      upstream = `/search?${q}`;
    } else if (rawPath === 'random') {
      upstream = `/random?content=${encodeURIComponent(book.urlName)}`;
    } else {
      const segments = decodeSegments(rawPath);
      if (!segments) return { kind: 'page', status: 404, html: friendlyPage({ title: 'Page not found', message: 'That address is not valid.', dark }) };
      upstream = rawPath === '' ? `${book.href}/` : `${book.href}/${encodeSegments(segments)}`;
    }

    // Book content is answered from the cache when it was read before; kiwix's search and random
    // pages are dynamic, and a range request goes to the archive server as it is.
    const cacheKey = rawPath === 'search' || rawPath === 'random' || opts.range ? null : upstream;
    const cached = cacheKey ? this.deps.cache.get(cacheKey) : undefined;
    if (cached) return this.entryResult(cached, book, viewBase, theme);
    const generation = this.deps.cache.generation;

    let finalPath = rawPath === '' || rawPath === 'search' || rawPath === 'random' ? '' : encodeSegments(decodeSegments(rawPath)!);
    let res: RawResponse | null = null;
    for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
      try {
        res = await this.deps.kiwix.get(upstream, { range: opts.range });
      } catch {
        return this.notReady(dark, 'The archive server did not answer. Hearth will keep trying.');
      }
      if (res.status < 300 || res.status >= 400) break;
      await res.body.dump();
      const location = header(res.headers, 'location');
      const target = location ? pathFromLocation(location, book.href) : null;
      if (!target) return { kind: 'page', status: 502, html: friendlyPage({ title: 'Page not found', message: 'The archive pointed somewhere outside this book.', dark }) };
      finalPath = encodeSegments(target);
      upstream = `${book.href}/${finalPath}`;
      res = null;
    }
    if (!res) return { kind: 'page', status: 508, html: friendlyPage({ title: 'Page not found', message: 'This page redirects in a loop.', dark }) };
    if (res.status === 404) {
      await res.body.dump();
      return { kind: 'page', status: 404, html: friendlyPage({ title: 'Page not found', message: 'This archive has no such page.', dark }) };
    }
    if (res.status >= 500) {
      await res.body.dump();
      return { kind: 'page', status: 502, html: friendlyPage({ title: 'This page cannot be shown', message: 'The archive could not read this page; it may be damaged. An admin can verify the archives.', dark }) };
    }
    const type = header(res.headers, 'content-type') ?? 'application/octet-stream';
    const html = /^text\/html/i.test(type);
    if (html && opts.range && res.status === 206) {
      // a range of HTML refers to undecorated bytes: serve the whole page instead
      await res.body.dump();
      return this.view(sourceId, rawPath, query, theme);
    }
    const headers: Record<string, string> = {};
    for (const h of FORWARD_HEADERS) {
      const v = header(res.headers, h);
      if (v) headers[h] = v;
    }
    if (html && rawPath === 'search') {
      // kiwix's search page links to itself and its book with root-relative URLs: the full rewrite
      const nonce = randomUUID().replace(/-/g, '');
      const body = Buffer.from(rewriteHtml(await res.body.text(), { bookHref: book.href, viewBase, finalPath, ...theme, nonce }));
      return { kind: 'body', status: res.status, body, headers: htmlHeaders(body.length, headers['cache-control'], nonce) };
    }
    const length = Number(headers['content-length']);
    // pages are read whole anyway (they are rewritten); other entries when they are small enough to keep
    if (html || (cacheKey && res.status === 200 && Number.isFinite(length) && length <= this.deps.cache.maxEntryBytes)) {
      const entry: CachedEntry = { status: res.status, finalPath, type, headers, body: await res.body.bytes() };
      if (cacheKey && res.status === 200) this.deps.cache.set(cacheKey, entry, generation);
      return this.entryResult(entry, book, viewBase, theme);
    }
    return { kind: 'stream', status: res.status, headers, body: res.body };
  }

  /** An entry read whole (just now or from the cache): a page gets its per-request rewrite. */
  private entryResult(entry: CachedEntry, book: CatalogBook, viewBase: string, theme: { dark: boolean; followDevice?: boolean }): ViewResult {
    if (!/^text\/html/i.test(entry.type)) return { kind: 'body', status: entry.status, body: entry.body, headers: { ...entry.headers, 'content-length': String(entry.body.length) } };
    const nonce = randomUUID().replace(/-/g, ''); // randomUUID draws from a cached entropy pool
    const page = (entry.page ??= preparePage(entry.body, { bookHref: book.href, viewBase, finalPath: entry.finalPath }));
    const inject = Buffer.from(injection({ bookHref: book.href, viewBase, finalPath: entry.finalPath, ...theme, nonce }));
    const length = page.before.length + inject.length + page.after.length;
    return { kind: 'body', status: entry.status, body: [page.before, inject, page.after], headers: htmlHeaders(length, entry.headers['cache-control'], nonce) };
  }

  /** How the content proxy's cache is doing (entries, bytes, hits, misses). */
  cacheStats() {
    return this.deps.cache.stats();
  }
}
