// What the shows module asks of the rest of Hearth (container.ts hands these in).
import type { UserActor } from '../../actor.js';

export interface ShowsPorts {
  /**
   * The household's Plex item for a show, matched by its show-database ids, as the member may see
   * it (their Media level, private sections); null when it is not there, or Plex is not connected
   * or does not answer.
   */
  inPlex(actor: UserActor, ids: { tvdb: number | null; imdb: string | null }): Promise<{ ratingKey: string } | null>;
  /** The household's time zone (the locale module): each episode's air time is written in it. */
  timeZone(): Promise<string>;
  /**
   * The member's own viewed state of the episodes of the household's Plex show (their own token),
   * by season and number; null when they have no Plex token for it or Plex does not answer.
   */
  episodeViews(actor: UserActor, ratingKey: string): Promise<Array<{ season: number; episode: number; watched: boolean }> | null>;
}
