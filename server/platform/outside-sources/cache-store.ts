// A module's cache of outside sources (Today's `today_cache`, the shows' `shows_cache`): one row per
// source key (a forecast, a day of "on this day", a news feed, a show):
// the last good payload, its validators and the backoff state. Times are ISO strings.
import type { Knex } from 'knex';

export interface CacheEntry {
  key: string;
  source: string;
  url: string;
  /** The parsed payload of the last good fetch; null before the first. */
  payload: unknown;
  fetchedAt: string | null;
  expiresAt: string | null;
  etag: string | null;
  lastModified: string | null;
  failCount: number;
  nextTryAt: string | null;
  lastError: string | null;
  lastTryAt: string | null;
}

/** One source's latest outcomes across its keys (the admin's Connectivity page). */
export interface SourceHealth {
  source: string;
  /** The newest good fetch of any of its keys (ISO); null before the first. */
  lastSuccessAt: string | null;
  /** The newest failure still standing (a key whose last try failed), with when; null when none. */
  lastError: string | null;
  lastErrorAt: string | null;
}

interface Row {
  key: string;
  source: string;
  url: string;
  payload: string | null;
  fetched_at: string | null;
  expires_at: string | null;
  etag: string | null;
  last_modified: string | null;
  fail_count: number;
  next_try_at: string | null;
  last_error: string | null;
  last_try_at: string | null;
}

function parsePayload(s: string | null): unknown {
  if (s === null) return null;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return null;
  }
}

const toEntry = (r: Row): CacheEntry => ({
  key: r.key,
  source: r.source,
  url: r.url,
  payload: parsePayload(r.payload),
  fetchedAt: r.fetched_at,
  expiresAt: r.expires_at,
  etag: r.etag,
  lastModified: r.last_modified,
  failCount: r.fail_count,
  nextTryAt: r.next_try_at,
  lastError: r.last_error,
  lastTryAt: r.last_try_at,
});

export class SourceCacheStore {
  /** `table` has the columns of `today_cache` (migrations/20261203084100_create_today_cache.ts). */
  constructor(
    private readonly db: Knex,
    private readonly table: string,
  ) {}

  async get(key: string): Promise<CacheEntry | null> {
    const row = (await this.db(this.table).where({ key }).first()) as Row | undefined;
    return row ? toEntry(row) : null;
  }

  async listBySource(source: string): Promise<CacheEntry[]> {
    const rows = (await this.db(this.table).where({ source }).orderBy('key')) as Row[];
    return rows.map(toEntry);
  }

  async put(e: CacheEntry): Promise<void> {
    const row: Row = {
      key: e.key,
      source: e.source,
      url: e.url,
      payload: e.payload === null || e.payload === undefined ? null : JSON.stringify(e.payload),
      fetched_at: e.fetchedAt,
      expires_at: e.expiresAt,
      etag: e.etag,
      last_modified: e.lastModified,
      fail_count: e.failCount,
      next_try_at: e.nextTryAt,
      last_error: e.lastError,
      last_try_at: e.lastTryAt,
    };
    await this.db(this.table).insert(row).onConflict('key').merge();
  }

  /** Each source's newest success and newest standing failure, in two small grouped reads. */
  async health(): Promise<SourceHealth[]> {
    const ok = (await this.db(this.table).select('source').max({ at: 'fetched_at' }).groupBy('source')) as { source: string; at: string | null }[];
    const failed = (await this.db(this.table).whereNotNull('last_error').select('source', 'last_error', 'last_try_at').orderBy('last_try_at', 'desc')) as { source: string; last_error: string; last_try_at: string | null }[];
    return ok
      .map((r) => {
        const f = failed.find((x) => x.source === r.source);
        return { source: r.source, lastSuccessAt: r.at, lastError: f?.last_error ?? null, lastErrorAt: f?.last_try_at ?? null };
      })
      .sort((a, b) => a.source.localeCompare(b.source));
  }

  async delete(key: string): Promise<void> {
    await this.db(this.table).where({ key }).delete();
  }

  /** Forgets one source's copies fetched before `before` (ISO), except the keys in `keep`; how many went. */
  async deleteFetchedBefore(source: string, before: string, keep: readonly string[] = []): Promise<number> {
    return this.db(this.table)
      .where({ source })
      .andWhere((q) => void q.where('fetched_at', '<', before).orWhereNull('fetched_at'))
      .whereNotIn('key', keep)
      .delete();
  }
}
