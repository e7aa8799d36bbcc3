// Podcasts (issue 35): requests and answers.
import { z } from 'zod';

export const SearchQuery = z.object({ q: z.string().trim().min(1, 'Type something to search for.').max(200) });
export const PodcastSearchResult = z.object({
  title: z.string(),
  author: z.string().nullable(),
  imageUrl: z.string().nullable(),
  feedUrl: z.string().nullable(),
  /** The show's number in Apple's directory, when the directory knows it. */
  itunesId: z.number().int().nullable(),
  /** false when the directory gives no feed address: such a show cannot be followed. */
  subscribable: z.boolean(),
});
export const PodcastSearchResponse = z.object({
  /** Which directory answered: Apple's (iTunes Search) or Podcast Index (once an admin adds its key). */
  source: z.enum(['itunes', 'podcastindex']),
  /** Why Podcast Index did not answer this search and Apple's directory did instead; null otherwise. */
  notice: z.string().nullable(),
  results: z.array(PodcastSearchResult),
});

/** The admin's Podcast Index key and secret (api.podcastindex.org, free). Never answered. */
const credential = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Paste the Podcast Index ${what}.`)
    .max(200, `That is longer than any Podcast Index ${what}.`)
    .regex(/^[\x21-\x7e]+$/, `The Podcast Index ${what} is letters, digits and symbols without spaces.`);
export const PodcastIndexBody = z.object({ key: credential('API key'), secret: credential('API secret') });
export const PodcastIndexStatusResponse = z.object({
  configured: z.boolean(),
  /** The key's last 4 characters, to tell keys apart (never the secret). */
  keyEnding: z.string().nullable(),
  setAt: z.string().nullable(),
});

/** A show to follow: its feed address, or its number in Apple's podcast directory (a search result's `itunesId`). */
export const SubscribeBody = z
  .object({
    feedUrl: z.string().url('The feed address must be a web address.').max(2000).optional(),
    itunesId: z.number().int().positive('An Apple podcast number is a whole number above 0.').max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .refine((b) => (b.feedUrl === undefined) !== (b.itunesId === undefined), { message: 'Send either the feed address (feedUrl) or the Apple podcast number (itunesId), one of them.' });
export const MAX_KEEP_NEWEST = 100;
/** A feed that failed this many polls in a row is shown as failing, with its last error. */
export const POLL_FAILING_AFTER = 3;
export const IdParams = z.object({ id: z.string().min(1).max(100) });

export const Subscription = z.object({
  id: z.string(),
  feedUrl: z.string(),
  title: z.string(),
  imageUrl: z.string().nullable(),
  subscribedAt: z.string(),
  /** When the feed said it is gone for good (410): the show is no longer polled. */
  stoppedAt: z.string().nullable(),
  /** Offline copies kept of the newest this many episodes (fetched after each poll, older ones removed); null keeps every copy and fetches none by itself. */
  keepNewest: z.number().int().nullable(),
  /** Set once the feed has failed several polls in a row: why, and when Hearth asks it again (it asks less often the longer it fails). */
  pollError: z.object({ message: z.string(), failures: z.number().int(), nextTryAt: z.string().nullable() }).nullable(),
});
export const SubscriptionResponse = z.object({ subscription: Subscription });
export const SubscriptionsResponse = z.object({
  subscriptions: z.array(Subscription),
  /** Hearth is in offline mode now: search, following, checking feeds, downloading and streaming an episode not downloaded are off. */
  offline: z.boolean(),
});

export const Episode = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  title: z.string(),
  audioType: z.string().nullable(),
  audioLength: z.number().nullable(),
  durationSec: z.number().nullable(),
  publishedAt: z.string().nullable(),
  positionSec: z.number(),
  finished: z.boolean(),
  /** The member's offline copy of it: waiting in the download queue, downloading, ready (its size on disk), or failed (why); null when none was asked for. */
  download: z
    .object({
      state: z.enum(['waiting', 'downloading', 'ready', 'failed']),
      /** On disk when ready; so far while downloading. */
      bytes: z.number().nullable(),
      totalBytes: z.number().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});
export type EpisodeDownload = NonNullable<z.infer<typeof Episode>['download']>;
export type Episode = z.infer<typeof Episode>;
export type Subscription = z.infer<typeof Subscription>;
export const EpisodesResponse = z.object({ episodes: z.array(Episode) });
export const EpisodeResponse = z.object({ episode: Episode });

/** PATCH /subscriptions/:id: keep offline copies of the newest N episodes (null: keep all, fetch none by itself). */
export const SubscriptionPatch = z.strictObject({ keepNewest: z.number({ message: 'keepNewest must be a whole number from 1 to 100, or null.' }).int('keepNewest must be a whole number.').min(1, 'Keep at least 1 episode, or send null to keep all.').max(MAX_KEEP_NEWEST, `Keep at most ${MAX_KEEP_NEWEST} episodes.`).nullable() });
export type SubscriptionPatch = z.infer<typeof SubscriptionPatch>;

export const ProgressBody = z.object({
  positionSec: z.number().min(0).max(100 * 3600),
  durationSec: z.number().min(0).max(100 * 3600),
  updatedAt: z.string().datetime({ message: 'updatedAt must be an ISO time.' }),
});
export type ProgressBody = z.infer<typeof ProgressBody>;
/** An episode is finished when this little (or less) remains. */
export const FINISHED_REMAINING_SEC = 30;

export const MAX_OPML_BYTES = 2 * 1024 * 1024;
export const OpmlImportResponse = z.object({
  added: z.array(Subscription),
  /** Shows the member already followed. */
  existing: z.number().int(),
  /** Outlines whose feed could not be read (down, not a feed) or that had no feed address. */
  failed: z.number().int(),
});
export type OpmlImportResponse = z.infer<typeof OpmlImportResponse>;
