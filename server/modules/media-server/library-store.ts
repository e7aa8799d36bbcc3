// The library's two tables: rule 4's resolution cache (media_resolutions, 30 days, keyed by the
// GUID as the server sent it without its query, or `title:<title>|<year>`) and each member's watch
// state as Hearth last saw or set it (media_progress, rule 5). No authorization here: the library
// service scopes every progress read by the caller's own user id.
import type { Knex } from 'knex';
import type { Clock } from '../../platform/clock.js';
import type { Resolution } from './guids.js';
import type { ProgressRow, ResolutionCache } from './parts.js';

export class ResolutionStore implements ResolutionCache {
  constructor(
    private readonly db: Knex,
    private readonly clock: Clock,
  ) {}

  private cutoff(maxAgeMs: number): string {
    return new Date(this.clock.now().getTime() - maxAgeMs).toISOString();
  }

  async get(key: string, maxAgeMs: number): Promise<Resolution | null> {
    const row = (await this.db('media_resolutions').where({ cache_key: key }).first()) as { resolution: string; resolved_at: string } | undefined;
    if (!row || row.resolved_at < this.cutoff(maxAgeMs)) return null;
    try {
      return JSON.parse(row.resolution) as Resolution;
    } catch {
      return null;
    }
  }

  async put(key: string, resolution: Resolution): Promise<void> {
    await this.db('media_resolutions')
      .insert({ cache_key: key, resolution: JSON.stringify(resolution), resolved_at: this.clock.now().toISOString() })
      .onConflict('cache_key')
      .merge();
  }

  async prune(maxAgeMs: number): Promise<number> {
    return this.db('media_resolutions').where('resolved_at', '<', this.cutoff(maxAgeMs)).delete();
  }
}

interface ProgressDbRow {
  user_id: string;
  rating_key: string;
  position_ms: number;
  duration_ms: number | null;
  completed: number | boolean;
  view_count: number;
  updated_at: string;
  synced_at: string | null;
}

const toProgress = (r: ProgressDbRow): ProgressRow => ({
  userId: r.user_id,
  ratingKey: r.rating_key,
  positionMs: r.position_ms,
  durationMs: r.duration_ms,
  completed: Boolean(r.completed),
  viewCount: r.view_count,
  updatedAt: r.updated_at,
  syncedAt: r.synced_at,
});

export class ProgressStore {
  constructor(private readonly db: Knex) {}

  async get(userId: string, ratingKey: string): Promise<ProgressRow | null> {
    const row = (await this.db('media_progress').where({ user_id: userId, rating_key: ratingKey }).first()) as ProgressDbRow | undefined;
    return row ? toProgress(row) : null;
  }

  async list(userId: string, ratingKeys: readonly string[]): Promise<ProgressRow[]> {
    if (ratingKeys.length === 0) return [];
    const rows = (await this.db('media_progress').where({ user_id: userId }).whereIn('rating_key', [...ratingKeys])) as ProgressDbRow[];
    return rows.map(toProgress);
  }

  async upsert(row: ProgressRow): Promise<void> {
    await this.db('media_progress')
      .insert({
        user_id: row.userId,
        rating_key: row.ratingKey,
        position_ms: Math.max(0, Math.round(row.positionMs)),
        duration_ms: row.durationMs === null ? null : Math.round(row.durationMs),
        completed: row.completed,
        view_count: row.viewCount,
        updated_at: row.updatedAt,
        synced_at: row.syncedAt,
      })
      .onConflict(['user_id', 'rating_key'])
      .merge();
  }
}
