// Shows (issue 35): requests and answers of /api/shows.
import { z } from 'zod';

export const SearchQuery = z.object({ q: z.string().trim().min(1, 'Type a show’s name to search for.').max(200) });
export const ShowIdParams = z.object({ id: z.coerce.number({ message: 'A show is named by its TVmaze number.' }).int().min(1).max(10_000_000) });
export const EpisodeParams = ShowIdParams.extend({ episodeId: z.coerce.number({ message: 'An episode is named by its TVmaze number.' }).int().min(1).max(100_000_000) });
export const WatchlistBody = z.object({ tvmazeId: z.number({ message: 'Say which show (its tvmazeId).' }).int().min(1).max(10_000_000) });
export const WatchedBody = z.object({ watched: z.boolean({ message: 'Say whether the episode was watched (true or false).' }) });

/** How old the TV guide's copy is (TVmaze is asked at most once a day per show). */
export const Freshness = z.object({ fetchedAt: z.string(), ageSeconds: z.number().int(), stale: z.boolean() });

export const ShowSummary = z.object({
  tvmazeId: z.number().int(),
  name: z.string(),
  status: z.string().nullable(),
  premiered: z.string().nullable(),
  ended: z.string().nullable(),
  network: z.string().nullable(),
  genres: z.array(z.string()),
  /** Hearth's own address of the poster (fetched once by Hearth), or null when TVmaze has none. */
  imageUrl: z.string().nullable(),
  /** TVmaze's summary as plain text. */
  summary: z.string(),
});
export type ShowSummary = z.infer<typeof ShowSummary>;
export const SearchResponse = z.object({ results: z.array(ShowSummary) });

export const Episode = z.object({
  id: z.number().int(),
  season: z.number().int(),
  /** null for a special. */
  number: z.number().int().nullable(),
  name: z.string(),
  /** When it airs, ISO 8601 with the household's offset; null when TVmaze does not know yet. */
  airsAt: z.string().nullable(),
  runtime: z.number().int().nullable(),
  summary: z.string(),
  watched: z.boolean(),
});
export type Episode = z.infer<typeof Episode>;

export const Season = z.object({ number: z.number().int(), episodeCount: z.number().int(), premiereDate: z.string().nullable(), endDate: z.string().nullable() });

export const ShowResponse = z.object({
  show: ShowSummary.extend({
    officialSite: z.string().nullable(),
    runtime: z.number().int().nullable(),
    schedule: z.object({ time: z.string(), days: z.array(z.string()) }),
    externals: z.object({ tvdb: z.number().int().nullable(), imdb: z.string().nullable() }),
  }),
  seasons: z.array(Season),
  episodes: z.array(Episode),
  nextEpisode: Episode.nullable(),
  /** The household's Plex has it (matched by the show-database ids): open it there. */
  inPlex: z.object({ ratingKey: z.string() }).nullable(),
  onWatchlist: z.boolean(),
  freshness: Freshness,
});
export type ShowResponse = z.infer<typeof ShowResponse>;

export const WatchlistEntry = z.object({
  tvmazeId: z.number().int(),
  name: z.string(),
  imageUrl: z.string().nullable(),
  addedAt: z.string(),
  status: z.string().nullable(),
  nextEpisode: z.object({ season: z.number().int(), number: z.number().int().nullable(), name: z.string(), airsAt: z.string().nullable() }).nullable(),
  watchedCount: z.number().int(),
  episodeCount: z.number().int().nullable(),
});
export type WatchlistEntry = z.infer<typeof WatchlistEntry>;
export const WatchlistResponse = z.object({ shows: z.array(WatchlistEntry) });
export const WatchlistEntryResponse = z.object({ show: WatchlistEntry });

export const ScheduleItem = z.object({
  tvmazeId: z.number().int(),
  showName: z.string(),
  episodeId: z.number().int(),
  season: z.number().int(),
  number: z.number().int().nullable(),
  name: z.string(),
  airsAt: z.string(),
});
export const ScheduleResponse = z.object({
  episodes: z.array(ScheduleItem),
  /** Shows on the watchlist whose guide could not be read just now (TVmaze down, no copy yet). */
  unavailable: z.array(z.object({ tvmazeId: z.number().int(), name: z.string() })),
});
export type ScheduleResponse = z.infer<typeof ScheduleResponse>;

export const WatchedResponse = z.object({ episodeId: z.number().int(), watched: z.boolean() });
