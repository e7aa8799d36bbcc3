// A memory cache of archive entries in front of the archive server. A ZIM file never changes
// while it is served (kiwix-serve marks its content `public, max-age` for a month), so an entry
// read once can be answered again without a new connection to kiwix-serve, which closes every
// connection. Each article page brings the same style sheets, scripts and icons, so those are the
// usual hits. The cache holds the entry as the archive server sent it (before the per-request
// rewrite with its nonce and theme), is bounded in bytes (least recently used goes first), and is
// emptied whenever the set of served archives changes. A read that started before such a change
// does not put its entry back afterwards (the generation check).
import { LRUCache } from 'lru-cache';
import type { PreparedPage } from './proxy.js';

export interface CachedEntry {
  status: number;
  /** The entry's encoded path inside the book after redirects (the base tag of an HTML page). */
  finalPath: string;
  /** The archive server's Content-Type. */
  type: string;
  /** Headers to forward (content-type, cache-control, last-modified…), for non-HTML entries. */
  headers: Record<string, string>;
  body: Buffer;
  /** An HTML page's rewrite up to the per-request injection, made on first use. */
  page?: PreparedPage;
}

export interface EntryCacheOptions {
  /** Total bytes of bodies kept (default 32 MB; 0 keeps nothing). */
  maxBytes?: number;
  /** Larger entries are streamed through and never kept (default 1 MB). */
  maxEntryBytes?: number;
}

export class ArchiveEntryCache {
  private readonly lru: LRUCache<string, CachedEntry>;
  readonly maxEntryBytes: number;
  private gen = 0;
  private hits = 0;
  private misses = 0;

  constructor(opts: EntryCacheOptions = {}) {
    const maxBytes = opts.maxBytes ?? 32 * 1024 * 1024;
    this.maxEntryBytes = maxBytes > 0 ? Math.min(opts.maxEntryBytes ?? 1024 * 1024, Math.floor(maxBytes / 4)) : -1;
    this.lru = new LRUCache<string, CachedEntry>({
      maxSize: Math.max(1, maxBytes),
      // the body, room for a page's rewrite of it, and a little for the key and headers
      sizeCalculation: (e, key) => 2 * e.body.length + key.length + 256,
    });
  }

  /** The current generation: pass it to set() so a read that outlived a clear() is dropped. */
  get generation(): number {
    return this.gen;
  }

  get(key: string): CachedEntry | undefined {
    const e = this.lru.get(key);
    if (e) this.hits++;
    else this.misses++;
    return e;
  }

  /** Keeps the entry when it is small enough and no clear() happened since `generation` was read. */
  set(key: string, entry: CachedEntry, generation: number): boolean {
    if (generation !== this.gen || entry.body.length > this.maxEntryBytes) return false;
    this.lru.set(key, entry);
    return true;
  }

  clear(): void {
    this.gen++;
    this.lru.clear();
  }

  stats() {
    return { entries: this.lru.size, bytes: this.lru.calculatedSize, hits: this.hits, misses: this.misses };
  }
}
