// Films (issue 35): requests and answers of /api/movies.
import { z } from 'zod';

/**
 * Hearth's name of a film: `tmdb-<TMDB number>`, `plex-<Plex catalogue key>` (24 hex) or
 * `lib-<ratingKey>` (a film of the household's Plex library).
 */
export const MovieId = z
  .string({ message: 'Say which film (its id).' })
  .regex(/^(tmdb-[1-9]\d{0,8}|plex-[0-9a-f]{24}|lib-[1-9]\d{0,11})$/, 'A film is named by the id a search gave it (such as tmdb-603).');
export type MovieId = z.infer<typeof MovieId>;

export const SearchQuery = z.object({ q: z.string({ message: 'Type a film’s name to search for.' }).trim().min(1, 'Type a film’s name to search for.').max(200) });
export const MovieIdParams = z.object({ id: MovieId });
export const WatchlistBody = z.object({ id: MovieId });
export const TmdbTokenBody = z.object({
  token: z
    .string({ message: 'Paste TMDB’s API Read Access Token.' })
    .trim()
    .min(30, 'That is not TMDB’s API Read Access Token: paste the long one (it starts with eyJ), not the short API key.')
    .max(2000)
    .regex(/^[A-Za-z0-9_\-.]+$/, 'A TMDB token has only letters, digits, dots, dashes and underscores.'),
});

/** Where a search was answered from: Plex's catalogue (the member's own account), TMDB, or the household's Plex library. */
export const MovieSource = z.enum(['plex', 'tmdb', 'library']);
export type MovieSource = z.infer<typeof MovieSource>;

export const MovieSummary = z.object({
  id: MovieId,
  title: z.string(),
  year: z.number().int().nullable(),
  overview: z.string(),
  /** Hearth's own address of the poster (fetched once by Hearth), or null when there is none. */
  posterUrl: z.string().nullable(),
});
export type MovieSummary = z.infer<typeof MovieSummary>;
export const SearchResponse = z.object({ source: MovieSource, results: z.array(MovieSummary) });
export type SearchResponse = z.infer<typeof SearchResponse>;

export const MovieResponse = z.object({
  source: MovieSource,
  movie: MovieSummary.extend({
    runtimeMinutes: z.number().int().nullable(),
    genres: z.array(z.string()),
    ids: z.object({ tmdb: z.string().nullable(), imdb: z.string().nullable() }),
  }),
  /** The household's Plex has it (matched by its ids): open it there. */
  inPlex: z.object({ ratingKey: z.string() }).nullable(),
  onWatchlist: z.boolean(),
});
export type MovieResponse = z.infer<typeof MovieResponse>;

/** How the copy on the member's own Plex watchlist went: made, failed (Plex did not take it), or off (no Plex account linked). */
export const PlexCopy = z.enum(['mirrored', 'failed', 'off']);
export type PlexCopy = z.infer<typeof PlexCopy>;

export const WatchlistEntry = z.object({
  id: MovieId,
  title: z.string(),
  year: z.number().int().nullable(),
  posterUrl: z.string().nullable(),
  addedAt: z.string(),
  plex: PlexCopy,
});
export type WatchlistEntry = z.infer<typeof WatchlistEntry>;
export const WatchlistResponse = z.object({ movies: z.array(WatchlistEntry) });
export const WatchlistAddResponse = z.object({
  movie: WatchlistEntry,
  /** Why the copy on the member's Plex watchlist failed (the film is on Hearth's watchlist all the same); null when it did not. */
  plexMessage: z.string().nullable(),
});
export type WatchlistAddResponse = z.infer<typeof WatchlistAddResponse>;

export const TmdbStatusResponse = z.object({ configured: z.boolean() });
