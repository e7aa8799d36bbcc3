// Queries of podcast_subscriptions and podcast_episodes; every read scoped to the member.
import type { Knex } from 'knex';
import type { PodcastItem } from './podcast-feed.js';
import type { Episode, Subscription } from './schema.js';

interface SubRow { id: string; user_id: string; feed_url: string; title: string; image_url: string | null; subscribed_at: string; etag: string | null; last_modified: string | null; stopped_at: string | null }
export interface Validators { etag: string | null; lastModified: string | null }
/** An episode's row with its dedup keys (guid or enclosure address). */
type StoredEpisode = EpRow & { key: string; audio_url: string };
interface EpRow { id: string; subscription_id: string; title: string; audio_type: string | null; audio_length: number | null; duration_sec: number | null; published_at: string | null; position_sec: number; progress_at: string | null; finished: number | boolean }

/** Hearth's own address of a show's cover (the feed's image address is kept, never answered). */
export const coverPath = (subscriptionId: string) => `/api/podcasts/subscriptions/${subscriptionId}/image`;
const sub = (r: SubRow): Subscription => ({ id: r.id, feedUrl: r.feed_url, title: r.title, imageUrl: r.image_url ? coverPath(r.id) : null, subscribedAt: r.subscribed_at, stoppedAt: r.stopped_at });
const ep = (r: EpRow): Episode => ({
  id: r.id,
  subscriptionId: r.subscription_id,
  title: r.title,
  audioType: r.audio_type,
  audioLength: r.audio_length,
  durationSec: r.duration_sec,
  publishedAt: r.published_at,
  positionSec: r.position_sec,
  finished: Boolean(r.finished),
});

export class PodcastsStore {
  constructor(private readonly db: Knex) {}

  async subscriptions(userId: string): Promise<Subscription[]> {
    return ((await this.db<SubRow>('podcast_subscriptions').where({ user_id: userId }).orderBy('title')) as SubRow[]).map(sub);
  }
  async subscription(userId: string, id: string): Promise<Subscription | null> {
    const r = (await this.db<SubRow>('podcast_subscriptions').where({ user_id: userId, id }).first()) as SubRow | undefined;
    return r ? sub(r) : null;
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
  async insertSubscription(userId: string, s: Subscription, v: Validators, items: PodcastItem[], newId: () => string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('podcast_subscriptions').insert({ id: s.id, user_id: userId, feed_url: s.feedUrl, title: s.title, image_url: s.imageUrl, subscribed_at: s.subscribedAt, etag: v.etag, last_modified: v.lastModified, polled_at: s.subscribedAt });
      await insertItems(trx, s.id, items, newId);
    });
  }
  /** Every subscription still polled, with its validators (the hourly poll). */
  async pollable(): Promise<{ userId: string; id: string }[]> {
    return ((await this.db<SubRow>('podcast_subscriptions').whereNull('stopped_at').select('user_id', 'id')) as SubRow[]).map((r) => ({ userId: r.user_id, id: r.id }));
  }
  async validators(id: string): Promise<Validators> {
    const r = (await this.db<SubRow>('podcast_subscriptions').where({ id }).first('etag', 'last_modified')) as SubRow | undefined;
    return { etag: r?.etag ?? null, lastModified: r?.last_modified ?? null };
  }
  async polled(id: string, patch: { at: string; feedUrl?: string; validators?: Validators; stopped?: boolean }): Promise<void> {
    await this.db('podcast_subscriptions')
      .where({ id })
      .update({
        polled_at: patch.at,
        ...(patch.feedUrl ? { feed_url: patch.feedUrl } : {}),
        ...(patch.validators ? { etag: patch.validators.etag, last_modified: patch.validators.lastModified } : {}),
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
  async episodes(subscriptionId: string): Promise<Episode[]> {
    return ((await this.db<EpRow>('podcast_episodes').where({ subscription_id: subscriptionId }).orderBy('published_at', 'desc')) as EpRow[]).map(ep);
  }
  /** The member's unfinished episodes published after they followed the show, newest first. */
  async inbox(userId: string): Promise<Episode[]> {
    const rows = (await this.db('podcast_episodes as e')
      .join('podcast_subscriptions as s', 's.id', 'e.subscription_id')
      .where('s.user_id', userId)
      .andWhere('e.finished', false)
      .andWhereRaw('e.published_at > s.subscribed_at')
      .orderBy('e.published_at', 'desc')
      .select('e.*')) as EpRow[];
    return rows.map(ep);
  }
  /** An episode of a show the member follows, else null. */
  async episodeOf(userId: string, id: string): Promise<(Episode & { progressAt: string | null }) | null> {
    const r = (await this.db('podcast_episodes as e').join('podcast_subscriptions as s', 's.id', 'e.subscription_id').where({ 's.user_id': userId, 'e.id': id }).first('e.*')) as EpRow | undefined;
    return r ? { ...ep(r), progressAt: r.progress_at } : null;
  }
  /** The enclosure address of an episode of a show the member follows, else null. */
  async audioUrlOf(userId: string, id: string): Promise<string | null> {
    const r = (await this.db('podcast_episodes as e').join('podcast_subscriptions as s', 's.id', 'e.subscription_id').where({ 's.user_id': userId, 'e.id': id }).first('e.audio_url')) as { audio_url: string } | undefined;
    return r?.audio_url ?? null;
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
