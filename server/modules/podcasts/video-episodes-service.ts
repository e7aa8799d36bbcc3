// What the video hub asks of the podcasts (issue 35): the video episodes of the shows the member
// follows, newest first, and one of them with its enclosure's address (for Hearth's player and the
// video cache). Another member's episode is not there (null).
import type { Knex } from 'knex';
import type { UserActor } from '../../actor.js';
import { PodcastVideoEpisodesStore, type PodcastVideoRow } from './video-episodes-store.js';

export type PodcastVideoEpisode = PodcastVideoRow;

export class PodcastVideosService {
  constructor(private readonly store: PodcastVideoEpisodesStore) {}

  recent(actor: UserActor, limit = 30): Promise<PodcastVideoEpisode[]> {
    return this.store.recent(actor.id, limit);
  }

  episode(actor: UserActor, id: string): Promise<PodcastVideoEpisode | null> {
    return this.store.one(actor.id, id);
  }
}

/** The service over the podcasts' own tables (built in the podcasts module.ts). */
export const createPodcastVideos = (db: Knex) => new PodcastVideosService(new PodcastVideoEpisodesStore(db));
