// Queries of show_watchlist and show_episodes_watched; every read scoped to the member.
import type { Knex } from 'knex';

export interface WatchlistRow {
  tvmazeId: number;
  name: string;
  addedAt: string;
}

export class ShowsStore {
  constructor(private readonly db: Knex) {}

  async watchlist(userId: string): Promise<WatchlistRow[]> {
    const rows = (await this.db('show_watchlist').where({ user_id: userId }).orderBy('added_at', 'desc')) as Array<{ tvmaze_id: number; name: string; added_at: string }>;
    return rows.map((r) => ({ tvmazeId: r.tvmaze_id, name: r.name, addedAt: r.added_at }));
  }

  async onWatchlist(userId: string, tvmazeId: number): Promise<boolean> {
    return (await this.db('show_watchlist').where({ user_id: userId, tvmaze_id: tvmazeId }).first('tvmaze_id')) !== undefined;
  }

  /** False when the show was already on the member's watchlist. */
  async add(userId: string, row: WatchlistRow): Promise<boolean> {
    try {
      await this.db('show_watchlist').insert({ user_id: userId, tvmaze_id: row.tvmazeId, name: row.name, added_at: row.addedAt });
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return false;
      throw err;
    }
  }

  /** False when it was not there. */
  async remove(userId: string, tvmazeId: number): Promise<boolean> {
    return (await this.db('show_watchlist').where({ user_id: userId, tvmaze_id: tvmazeId }).delete()) > 0;
  }

  /** Every show id on anyone's watchlist (their guides are kept when old copies are pruned). */
  async watchedShows(): Promise<number[]> {
    return ((await this.db('show_watchlist').distinct('tvmaze_id')) as Array<{ tvmaze_id: number }>).map((r) => r.tvmaze_id);
  }

  async watchedEpisodes(userId: string, tvmazeId: number): Promise<Set<number>> {
    const rows = (await this.db('show_episodes_watched').where({ user_id: userId, tvmaze_id: tvmazeId, watched: true }).select('episode_id')) as Array<{ episode_id: number }>;
    return new Set(rows.map((r) => r.episode_id));
  }

  /** The member's own tick or untick: kept as theirs, so Plex's viewed state never changes it. */
  async setWatched(userId: string, tvmazeId: number, episodeId: number, watched: boolean, at: string): Promise<void> {
    await this.db('show_episodes_watched')
      .insert({ user_id: userId, tvmaze_id: tvmazeId, episode_id: episodeId, watched_at: at, watched, source: 'member' })
      .onConflict(['user_id', 'episode_id'])
      .merge(['watched', 'source', 'watched_at']);
  }

  /**
   * Plex's viewed state for the episodes the member has not ticked or unticked themselves: watched
   * ones are written as Plex's, the others' Plex ticks taken away. One transaction.
   */
  async fillFromPlex(userId: string, tvmazeId: number, views: ReadonlyArray<{ episodeId: number; watched: boolean }>, at: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const own = new Set(((await trx('show_episodes_watched').where({ user_id: userId, tvmaze_id: tvmazeId, source: 'member' }).select('episode_id')) as Array<{ episode_id: number }>).map((r) => r.episode_id));
      for (const v of views) {
        if (own.has(v.episodeId)) continue;
        if (v.watched) await trx('show_episodes_watched').insert({ user_id: userId, tvmaze_id: tvmazeId, episode_id: v.episodeId, watched_at: at, watched: true, source: 'plex' }).onConflict(['user_id', 'episode_id']).ignore();
        else await trx('show_episodes_watched').where({ user_id: userId, episode_id: v.episodeId, source: 'plex' }).delete();
      }
    });
  }
}
