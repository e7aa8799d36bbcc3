// The podcasts module's read port for the video hub (issue 35): the video episodes (an enclosure of
// type video/*) of the shows a member follows. Reads only; every query scoped to the member.
import type { Knex } from 'knex';

export interface PodcastVideoRow {
  id: string;
  title: string;
  show: string;
  url: string;
  type: string;
  length: number | null;
  durationSec: number | null;
  publishedAt: string | null;
}
interface Raw { id: string; title: string; show: string; audio_url: string; audio_type: string; audio_length: number | null; duration_sec: number | null; published_at: string | null }
const row = (r: Raw): PodcastVideoRow => ({ id: r.id, title: r.title, show: r.show, url: r.audio_url, type: r.audio_type, length: r.audio_length, durationSec: r.duration_sec, publishedAt: r.published_at });

export class PodcastVideoEpisodesStore {
  constructor(private readonly db: Knex) {}

  private query(userId: string) {
    return this.db('podcast_episodes as e')
      .join('podcast_subscriptions as s', 's.id', 'e.subscription_id')
      .where('s.user_id', userId)
      .andWhere('e.audio_type', 'like', 'video/%')
      .select('e.id', 'e.title', 's.title as show', 'e.audio_url', 'e.audio_type', 'e.audio_length', 'e.duration_sec', 'e.published_at');
  }

  async recent(userId: string, limit: number): Promise<PodcastVideoRow[]> {
    return ((await this.query(userId).orderBy('e.published_at', 'desc').limit(limit)) as Raw[]).map(row);
  }

  async one(userId: string, id: string): Promise<PodcastVideoRow | null> {
    const r = (await this.query(userId).andWhere('e.id', id).first()) as Raw | undefined;
    return r ? row(r) : null;
  }
}
