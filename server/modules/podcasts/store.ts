// Queries of podcast_subscriptions, podcast_episodes and the offline copies (podcast_copies, one
// file per enclosure address, and podcast_downloads, which of a member's episodes asked for which);
// every member's read scoped to the member. A show's poll state is its feed's row in podcasts_cache.
import type { Knex } from 'knex';
import type { PodcastItem } from './podcast-feed.js';
import { POLL_FAILING_AFTER, type Episode, type Subscription } from './schema.js';

interface SubRow { id: string; user_id: string; feed_url: string; title: string; image_url: string | null; subscribed_at: string; stopped_at: string | null; keep_newest: number | null; fail_count?: number | null; last_error?: string | null; next_try_at?: string | null }
/** An episode's row with its dedup keys (guid or enclosure address). */
type StoredEpisode = EpRow & { key: string; audio_url: string };
interface EpRow { id: string; subscription_id: string; title: string; audio_type: string | null; audio_length: number | null; duration_sec: number | null; published_at: string | null; position_sec: number; progress_at: string | null; finished: number | boolean; copy_state?: 'queued' | 'ready' | null; copy_bytes?: number | null; copy_job?: string | null }
/** An episode as kept, with the download-queue job of its copy while that is not ready (the service asks the queue how it goes). */
export type KeptEpisode = Episode & { copyJobId: string | null };

export interface CopyRow { id: string; audio_url: string; destination: string; audio_type: string; job_id: string | null; state: 'queued' | 'ready'; bytes: number | null; created_at: string; ready_at: string | null }
/** One episode in the keep-newest rule's view. */
export interface KeepPlanEntry { id: string; title: string; audioUrl: string; audioType: string | null; finished: boolean; copyId: string | null; dropped: boolean }
/** What downloading one of a member's episodes needs to know of it. */
export interface DownloadTarget { id: string; subscriptionId: string; title: string; audioUrl: string; audioType: string | null; audioLength: number | null; copyId: string | null }

/** The cache key of a show's feed in podcasts_cache (one row per address, shared by every member following it). */
export const feedKey = (feedUrl: string) => `feed:${feedUrl}`;
export const FEED_SOURCE = 'podcast-feed';

/** Hearth's own address of a show's cover (the feed's image address is kept, never answered). */
export const coverPath = (subscriptionId: string) => `/api/podcasts/subscriptions/${subscriptionId}/image`;
const sub = (r: SubRow): Subscription => ({
  id: r.id,
  feedUrl: r.feed_url,
  title: r.title,
  imageUrl: r.image_url ? coverPath(r.id) : null,
  subscribedAt: r.subscribed_at,
  stoppedAt: r.stopped_at,
  keepNewest: r.keep_newest ?? null,
  pollError: (r.fail_count ?? 0) >= POLL_FAILING_AFTER && r.last_error ? { message: r.last_error, failures: r.fail_count!, nextTryAt: r.next_try_at ?? null } : null,
});
const ep = (r: EpRow): KeptEpisode => ({
  id: r.id,
  subscriptionId: r.subscription_id,
  title: r.title,
  audioType: r.audio_type,
  audioLength: r.audio_length,
  durationSec: r.duration_sec,
  publishedAt: r.published_at,
  positionSec: r.position_sec,
  finished: Boolean(r.finished),
  download: !r.copy_state ? null : r.copy_state === 'ready' ? { state: 'ready', bytes: r.copy_bytes ?? null, totalBytes: r.copy_bytes ?? null, error: null } : { state: 'waiting', bytes: null, totalBytes: null, error: null },
  copyJobId: r.copy_state === 'queued' ? (r.copy_job ?? null) : null,
});

/** podcast_subscriptions with its feed's poll state. */
function subsWithPollState(db: Knex) {
  return db('podcast_subscriptions as s')
    .leftJoin('podcasts_cache as c', function () {
      this.on('c.key', '=', db.raw("'feed:' || s.feed_url"));
    })
    .select('s.*', 'c.fail_count', 'c.last_error', 'c.next_try_at');
}
/** podcast_episodes with its copy's state (when the member asked for one). */
function episodesWithCopies(db: Knex) {
  return db('podcast_episodes as e')
    .leftJoin('podcast_downloads as d', 'd.episode_id', 'e.id')
    .leftJoin('podcast_copies as k', 'k.id', 'd.copy_id')
    .select('e.*', 'k.state as copy_state', 'k.bytes as copy_bytes', 'k.job_id as copy_job');
}
/** The inbox lists at most this many episodes (the newest). */
export const INBOX_LIMIT = 200;

export class PodcastsStore {
  constructor(private readonly db: Knex) {}

  async subscriptions(userId: string): Promise<Subscription[]> {
    return ((await subsWithPollState(this.db).where('s.user_id', userId).orderBy('s.title')) as SubRow[]).map(sub);
  }
  async subscription(userId: string, id: string): Promise<Subscription | null> {
    const r = (await subsWithPollState(this.db).where({ 's.user_id': userId, 's.id': id }).first()) as SubRow | undefined;
    return r ? sub(r) : null;
  }
  async setKeepNewest(userId: string, id: string, keepNewest: number | null): Promise<boolean> {
    return (await this.db('podcast_subscriptions').where({ user_id: userId, id }).update({ keep_newest: keepNewest })) > 0;
  }
  /** The feed's image address of a show the member follows: undefined when they do not, null when it has none. */
  async coverSourceOf(userId: string, id: string): Promise<string | null | undefined> {
    const r = (await this.db<SubRow>('podcast_subscriptions').where({ user_id: userId, id }).first('image_url')) as SubRow | undefined;
    return r ? r.image_url : undefined;
  }
  async byFeed(userId: string, feedUrl: string): Promise<Subscription | null> {
    const r = (await this.db<SubRow>('podcast_subscriptions').where({ user_id: userId, feed_url: feedUrl }).first()) as SubRow | undefined;
    return r ? sub(r) : null;
  }
  /** The owner's other subscription at that feed address, if they already follow it there. */
  async byFeedOf(subscriptionId: string, feedUrl: string): Promise<string | null> {
    const owner = this.db('podcast_subscriptions').where({ id: subscriptionId }).select('user_id');
    const r = (await this.db('podcast_subscriptions').whereIn('user_id', owner).andWhere({ feed_url: feedUrl }).whereNot({ id: subscriptionId }).first('id')) as { id: string } | undefined;
    return r?.id ?? null;
  }
  /**
   * One show followed twice (its old address moved onto one the member also follows): the
   * listening progress of `fromId`'s episodes goes to the same episodes of `intoId` (by guid or
   * enclosure address) where it is newer, then `fromId` goes. One transaction: nothing half-merged.
   */
  async mergeInto(fromId: string, intoId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const from = (await trx('podcast_episodes').where({ subscription_id: fromId }).whereNotNull('progress_at')) as StoredEpisode[];
      const into = (await trx('podcast_episodes').where({ subscription_id: intoId })) as StoredEpisode[];
      for (const e of from) {
        const same = into.find((x) => x.key === e.key || x.audio_url === e.audio_url);
        if (!same || (same.progress_at !== null && same.progress_at >= e.progress_at!)) continue;
        await trx('podcast_episodes').where({ id: same.id }).update({ position_sec: e.position_sec, finished: e.finished, progress_at: e.progress_at, ...(e.duration_sec !== null ? { duration_sec: e.duration_sec } : {}) });
      }
      await trx('podcast_subscriptions').where({ id: fromId }).delete();
    });
  }
  /** The subscription and its first episodes in one transaction: never a show without its episodes. */
  async insertSubscription(userId: string, s: Subscription, items: PodcastItem[], newId: () => string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('podcast_subscriptions').insert({ id: s.id, user_id: userId, feed_url: s.feedUrl, title: s.title, image_url: s.imageUrl, subscribed_at: s.subscribedAt, polled_at: s.subscribedAt });
      await insertItems(trx, s.id, items, newId);
    });
  }
  /** Every subscription still polled (the hourly poll), by feed address. */
  async pollable(): Promise<{ userId: string; id: string; feedUrl: string }[]> {
    return ((await this.db<SubRow>('podcast_subscriptions').whereNull('stopped_at').orderBy('feed_url').select('user_id', 'id', 'feed_url')) as SubRow[]).map((r) => ({ userId: r.user_id, id: r.id, feedUrl: r.feed_url }));
  }
  /** Forgets the kept copies of feeds no member follows any more (unfollowed, or moved away from). */
  async forgetUnfollowedFeeds(): Promise<number> {
    return this.db('podcasts_cache').where({ source: FEED_SOURCE }).whereNotIn('url', this.db('podcast_subscriptions').select('feed_url')).delete();
  }
  async polled(id: string, patch: { at: string; feedUrl?: string; stopped?: boolean }): Promise<void> {
    await this.db('podcast_subscriptions')
      .where({ id })
      .update({
        polled_at: patch.at,
        ...(patch.feedUrl ? { feed_url: patch.feedUrl } : {}),
        ...(patch.stopped ? { stopped_at: patch.at } : {}),
      });
  }
  /** New episodes of a later poll (the ones already kept, by guid or enclosure address, are left alone). */
  async addItems(subscriptionId: string, items: PodcastItem[], newId: () => string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const kept = (await trx('podcast_episodes').where({ subscription_id: subscriptionId }).select('key', 'audio_url')) as { key: string; audio_url: string }[];
      const known = new Set(kept.flatMap((k) => [k.key, k.audio_url]));
      await insertItems(trx, subscriptionId, items.filter((i) => !known.has(i.key) && !known.has(i.audioUrl)), newId);
    });
  }
  async deleteSubscription(userId: string, id: string): Promise<boolean> {
    return (await this.db('podcast_subscriptions').where({ user_id: userId, id }).delete()) > 0;
  }
  async episodes(subscriptionId: string): Promise<KeptEpisode[]> {
    return ((await episodesWithCopies(this.db).where('e.subscription_id', subscriptionId).orderBy('e.published_at', 'desc')) as EpRow[]).map(ep);
  }
  /** The member's unfinished episodes published after they followed the show, newest first (at most INBOX_LIMIT). */
  async inbox(userId: string): Promise<KeptEpisode[]> {
    // the newest ids first, from the inbox index alone; the whole rows (and their copies) only for those
    const newest = this.db('podcast_episodes as e')
      .join('podcast_subscriptions as s', 's.id', 'e.subscription_id')
      .where('s.user_id', userId)
      .andWhere('e.finished', false)
      .andWhereRaw('e.published_at > s.subscribed_at')
      .orderBy('e.published_at', 'desc')
      .limit(INBOX_LIMIT)
      .select('e.id');
    const rows = (await episodesWithCopies(this.db).whereIn('e.id', newest).orderBy('e.published_at', 'desc')) as EpRow[];
    return rows.map(ep);
  }
  /** An episode of a show the member follows, else null. */
  async episodeOf(userId: string, id: string): Promise<(KeptEpisode & { progressAt: string | null }) | null> {
    const r = (await episodesWithCopies(this.db).join('podcast_subscriptions as s', 's.id', 'e.subscription_id').where({ 's.user_id': userId, 'e.id': id }).first()) as EpRow | undefined;
    return r ? { ...ep(r), progressAt: r.progress_at } : null;
  }
  /** The enclosure address of an episode of a show the member follows, else null. */
  async audioUrlOf(userId: string, id: string): Promise<string | null> {
    const r = (await this.db('podcast_episodes as e').join('podcast_subscriptions as s', 's.id', 'e.subscription_id').where({ 's.user_id': userId, 'e.id': id }).first('e.audio_url')) as { audio_url: string } | undefined;
    return r?.audio_url ?? null;
  }
  /** The ready offline copy of an episode of a show the member follows, else null. */
  async readyCopyOf(userId: string, episodeId: string): Promise<CopyRow | null> {
    const r = (await this.db('podcast_downloads as d')
      .join('podcast_episodes as e', 'e.id', 'd.episode_id')
      .join('podcast_subscriptions as s', 's.id', 'e.subscription_id')
      .join('podcast_copies as k', 'k.id', 'd.copy_id')
      .where({ 's.user_id': userId, 'e.id': episodeId, 'k.state': 'ready' })
      .first('k.*')) as CopyRow | undefined;
    return r ?? null;
  }
  /** An episode of a show the member follows, with what a download needs, else null. */
  async downloadTarget(userId: string, episodeId: string): Promise<DownloadTarget | null> {
    const r = (await this.db('podcast_episodes as e')
      .join('podcast_subscriptions as s', 's.id', 'e.subscription_id')
      .leftJoin('podcast_downloads as d', 'd.episode_id', 'e.id')
      .where({ 's.user_id': userId, 'e.id': episodeId })
      .first('e.id', 'e.subscription_id', 'e.title', 'e.audio_url', 'e.audio_type', 'e.audio_length', 'd.copy_id')) as
      | { id: string; subscription_id: string; title: string; audio_url: string; audio_type: string | null; audio_length: number | null; copy_id: string | null }
      | undefined;
    return r ? { id: r.id, subscriptionId: r.subscription_id, title: r.title, audioUrl: r.audio_url, audioType: r.audio_type, audioLength: r.audio_length, copyId: r.copy_id } : null;
  }
  async copy(id: string): Promise<CopyRow | null> {
    return ((await this.db('podcast_copies').where({ id }).first()) as CopyRow | undefined) ?? null;
  }
  async insertCopy(c: CopyRow): Promise<void> {
    await this.db('podcast_copies').insert(c).onConflict('id').ignore();
  }
  /** The copy is (again) waiting for that queue job. */
  async setCopyJob(id: string, jobId: string): Promise<void> {
    await this.db('podcast_copies').where({ id }).update({ job_id: jobId, state: 'queued', bytes: null, ready_at: null });
  }
  async copyReady(id: string, bytes: number, at: string): Promise<void> {
    await this.db('podcast_copies').where({ id }).update({ state: 'ready', bytes, ready_at: at });
  }
  async queuedCopies(): Promise<CopyRow[]> {
    return (await this.db('podcast_copies').where({ state: 'queued' })) as CopyRow[];
  }
  /** The episode asks for that copy (again: its earlier removal is forgotten). */
  async link(episodeId: string, copyId: string, at: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('podcast_downloads').insert({ episode_id: episodeId, copy_id: copyId, requested_at: at }).onConflict('episode_id').merge();
      await trx('podcast_episodes').where({ id: episodeId }).update({ download_dropped_at: null });
    });
  }
  /** The episode no longer asks for a copy, and is remembered as removed (the keep-newest rule leaves it be). */
  async unlink(episodeIds: readonly string[], at: string): Promise<void> {
    if (episodeIds.length === 0) return;
    await this.db.transaction(async (trx) => {
      await trx('podcast_downloads').whereIn('episode_id', episodeIds).delete();
      await trx('podcast_episodes').whereIn('id', episodeIds).update({ download_dropped_at: at });
    });
  }
  /** Copies no episode asks for any more (removed, unfollowed, a member gone). */
  async orphanCopies(): Promise<CopyRow[]> {
    return (await this.db('podcast_copies').whereNotIn('id', this.db('podcast_downloads').select('copy_id'))) as CopyRow[];
  }
  /** Deletes a copy's row if still no episode asks for it (a download asked meanwhile keeps it). */
  async deleteCopyIfOrphan(id: string): Promise<boolean> {
    return (await this.db('podcast_copies').where({ id }).whereNotIn('id', this.db('podcast_downloads').select('copy_id')).delete()) > 0;
  }
  /** A show's episodes newest first, with the copy each asks for and whether it was removed: the keep-newest rule's input. */
  async keepPlan(subscriptionId: string): Promise<KeepPlanEntry[]> {
    const rows = (await this.db('podcast_episodes as e')
      .leftJoin('podcast_downloads as d', 'd.episode_id', 'e.id')
      .where('e.subscription_id', subscriptionId)
      .orderBy('e.published_at', 'desc')
      .select('e.id', 'e.title', 'e.audio_url', 'e.audio_type', 'e.finished', 'e.download_dropped_at', 'd.copy_id')) as { id: string; title: string; audio_url: string; audio_type: string | null; finished: number | boolean; download_dropped_at: string | null; copy_id: string | null }[];
    return rows.map((r) => ({ id: r.id, title: r.title, audioUrl: r.audio_url, audioType: r.audio_type, finished: Boolean(r.finished), copyId: r.copy_id, dropped: r.download_dropped_at !== null }));
  }
  /** Every show with a keep-newest rule, with its owner. */
  async keepingShows(): Promise<{ userId: string; id: string; keepNewest: number }[]> {
    return ((await this.db<SubRow>('podcast_subscriptions').whereNotNull('keep_newest').select('user_id', 'id', 'keep_newest')) as SubRow[]).map((r) => ({ userId: r.user_id, id: r.id, keepNewest: r.keep_newest! }));
  }
  async saveProgress(id: string, positionSec: number, durationSec: number | null, finished: boolean, at: string): Promise<void> {
    const patch: Record<string, unknown> = { position_sec: positionSec, finished, progress_at: at };
    if (durationSec !== null) patch.duration_sec = durationSec;
    await this.db('podcast_episodes').where({ id }).update(patch);
  }
}

async function insertItems(trx: Knex, subscriptionId: string, items: PodcastItem[], newId: () => string): Promise<void> {
  const seen = new Set<string>();
  for (const i of items) {
    if (seen.has(i.key) || seen.has(i.audioUrl)) continue;
    seen.add(i.key).add(i.audioUrl);
    await trx('podcast_episodes')
      .insert({ id: newId(), subscription_id: subscriptionId, key: i.key, title: i.title, audio_url: i.audioUrl, audio_type: i.audioType, audio_length: i.audioLength, duration_sec: i.durationSec, published_at: i.publishedAt })
      .onConflict(['subscription_id', 'key'])
      .ignore();
  }
}
