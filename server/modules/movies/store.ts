// Queries of movie_watchlist; every read and write scoped to the member.
import type { Knex } from 'knex';
import type { PlexCopy } from './schema.js';

export interface MovieWatchlistRow {
  movieId: string;
  title: string;
  year: number | null;
  tmdbId: number | null;
  imdbId: string | null;
  discoverKey: string | null;
  posterUrl: string | null;
  plexState: PlexCopy;
  addedAt: string;
}

interface Row {
  movie_id: string;
  title: string;
  year: number | null;
  tmdb_id: number | null;
  imdb_id: string | null;
  discover_key: string | null;
  poster_url: string | null;
  plex_state: string;
  added_at: string;
}

const toRow = (r: Row): MovieWatchlistRow => ({
  movieId: r.movie_id,
  title: r.title,
  year: r.year,
  tmdbId: r.tmdb_id,
  imdbId: r.imdb_id,
  discoverKey: r.discover_key,
  posterUrl: r.poster_url,
  plexState: r.plex_state === 'mirrored' || r.plex_state === 'failed' ? r.plex_state : 'off',
  addedAt: r.added_at,
});

export class MoviesStore {
  constructor(private readonly db: Knex) {}

  async watchlist(userId: string): Promise<MovieWatchlistRow[]> {
    return ((await this.db('movie_watchlist').where({ user_id: userId }).orderBy([{ column: 'added_at', order: 'desc' }, { column: 'rowid', order: 'desc' }])) as Row[]).map(toRow);
  }

  async get(userId: string, movieId: string): Promise<MovieWatchlistRow | null> {
    const r = (await this.db('movie_watchlist').where({ user_id: userId, movie_id: movieId }).first()) as Row | undefined;
    return r ? toRow(r) : null;
  }

  /** False when the film was already on the member's watchlist. */
  async add(userId: string, row: MovieWatchlistRow): Promise<boolean> {
    try {
      await this.db('movie_watchlist').insert({
        user_id: userId,
        movie_id: row.movieId,
        title: row.title,
        year: row.year,
        tmdb_id: row.tmdbId,
        imdb_id: row.imdbId,
        discover_key: row.discoverKey,
        poster_url: row.posterUrl,
        plex_state: row.plexState,
        added_at: row.addedAt,
      });
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return false;
      throw err;
    }
  }

  async setPlexCopy(userId: string, movieId: string, state: PlexCopy, discoverKey: string | null): Promise<void> {
    await this.db('movie_watchlist').where({ user_id: userId, movie_id: movieId }).update({ plex_state: state, discover_key: discoverKey });
  }

  /** The removed row; null when it was not there. */
  async remove(userId: string, movieId: string): Promise<MovieWatchlistRow | null> {
    const row = await this.get(userId, movieId);
    if (!row) return null;
    await this.db('movie_watchlist').where({ user_id: userId, movie_id: movieId }).delete();
    return row;
  }

  /** Every TMDB film on anyone's watchlist (their details and posters are kept when old copies are pruned). */
  async keptTmdbIds(): Promise<number[]> {
    return ((await this.db('movie_watchlist').whereNotNull('tmdb_id').distinct('tmdb_id')) as Array<{ tmdb_id: number }>).map((r) => r.tmdb_id);
  }
}
