// What other modules (films, shows) ask of the household's Plex and of each member's own Plex
// account, beside the library's feeds (issue 35):
// - Plex's catalogue (the discover provider) with the member's own account token: search by words,
//   one title with its external ids, and the discover key a title has for the member's watchlist;
// - the household's library with the shared token, as the member may see it (another member's
//   private library and titles above their Media level are never found): films by words, one film,
//   and "is this film here", matched by its external ids (tmdb, imdb);
// - the member's own viewed state of a show's episodes, with their own server token.
// Nothing here hands a token or a server address to a caller. Failures of the discover provider are
// the media server family's sentences (503/504/409); the badge and the viewed state are niceties:
// a failure there is "nothing known", never an error.
import type { DiscoverItem, PlexItem } from '../../adapters/media-server/plex.js';
import type { UserActor } from '../../actor.js';
import { AppError, ConflictError, NotFoundError } from '../../errors.js';
import { resolveMedia } from './guids.js';
import { toMediaItem } from './items.js';
import { isMediaFailure, MediaLibraryCalls, SENTENCES, type MediaLibraryDeps } from './library-calls.js';
import type { SectionVisibility, SharedServer } from './parts.js';
import type { MediaItem } from './schema.js';

export type { DiscoverItem } from '../../adapters/media-server/plex.js';

/** A film's external ids, as Plex's Guid array carries them. */
export interface TitleIds {
  tmdb: string | null;
  imdb: string | null;
}

/** A film of the household's library as a member sees it, with its external ids. */
export interface LibraryTitle {
  item: MediaItem;
  ids: TitleIds;
}

/** One episode's viewed state on the household's Plex, by its season and number. */
export interface EpisodeView {
  season: number;
  episode: number;
  watched: boolean;
}

const LIBRARY_SEARCH_LIMIT = 25;

export class MediaCatalogueService {
  private readonly calls: MediaLibraryCalls;

  constructor(private readonly d: MediaLibraryDeps) {
    this.calls = new MediaLibraryCalls(d);
  }

  /** Whether the member has linked their own Plex account. */
  async linked(actor: UserActor): Promise<boolean> {
    return (await this.d.connection.memberToken(actor.id)) !== null;
  }

  private async account(actor: UserActor): Promise<string> {
    const token = await this.d.connection.memberToken(actor.id);
    if (!token) throw new ConflictError('media_link_needed', SENTENCES.linkNeeded);
    return token;
  }

  // ---- Plex's catalogue, with the member's own account -----------------------------------------

  /** Plex's catalogue searched by words, with the member's own account; null when they have not linked it. */
  async searchCatalogue(actor: UserActor, q: string, type: 'movie' | 'show'): Promise<DiscoverItem[] | null> {
    const token = await this.d.connection.memberToken(actor.id);
    if (!token) return null;
    try {
      return await this.d.discover.search(token, q, { type, limit: 30 });
    } catch (err) {
      throw await this.calls.memberFailure(actor.id, err);
    }
  }

  /** One title of Plex's catalogue, with its external ids; 404 when Plex does not know the key. */
  async catalogueTitle(actor: UserActor, discoverKey: string): Promise<DiscoverItem> {
    const token = await this.account(actor);
    let found: DiscoverItem | null;
    try {
      found = await this.d.discover.metadata(token, discoverKey);
    } catch (err) {
      throw await this.calls.memberFailure(actor.id, err);
    }
    if (!found) throw new NotFoundError('Plex does not know that title.');
    return found;
  }

  /** The discover key of a title known by its ids (then its title and year) for the member's watchlist; null when Plex does not know it. */
  async discoverKeyFor(actor: UserActor, t: { type: 'movie' | 'show'; ids: TitleIds; title: string; year: number | null }): Promise<string | null> {
    const token = await this.account(actor);
    try {
      for (const [source, id] of [['tmdb', t.ids.tmdb], ['imdb', t.ids.imdb]] as const) {
        if (!id) continue;
        const hit = (await this.d.discover.matches(token, { type: t.type, guid: `${source}://${id}` }))[0];
        if (hit) return hit.key;
      }
      return (await this.d.discover.matches(token, { type: t.type, title: t.title, year: t.year }))[0]?.key ?? null;
    } catch (err) {
      throw await this.calls.memberFailure(actor.id, err);
    }
  }

  // ---- the household's library, with the shared token ------------------------------------------

  private async library<T>(actor: UserActor, call: (s: SharedServer, sections: SectionVisibility) => Promise<T>): Promise<T | null> {
    const shared = await this.d.connection.shared();
    if (!shared) return null;
    const sections = await this.d.privateSections.viewFor(actor.id);
    return this.calls.viaShared(shared, (s) => call(s, sections));
  }

  private static title(item: PlexItem): LibraryTitle {
    const r = resolveMedia(item);
    return { item: toMediaItem(item), ids: { tmdb: r.ids.tmdb, imdb: r.ids.imdb } };
  }

  /** Films of the household's library whose title holds the words; null when Plex is not connected. */
  async searchLibrary(actor: UserActor, q: string): Promise<LibraryTitle[] | null> {
    return this.library(actor, async (s, sections) => {
      const out: PlexItem[] = [];
      for (const section of (await s.client.sections(s.token)).filter((x) => x.type === 'movie' && !sections.hidden(x.key))) {
        const page = await s.client.sectionItems(s.token, section.key, { type: 1, includeGuids: true, filters: { title: q } });
        out.push(...this.calls.visible(sections, page.items).filter((i) => i.type === 'movie'));
      }
      return out.slice(0, LIBRARY_SEARCH_LIMIT).map((i) => MediaCatalogueService.title(i));
    });
  }

  /** One film of the household's library; 404 when it is not there (or not the member's to see). */
  async libraryTitle(actor: UserActor, ratingKey: string): Promise<LibraryTitle> {
    const found = await this.library(actor, async (s, sections) => {
      const item = await s.client.metadata(s.token, ratingKey);
      if (!item || item.type !== 'movie') return null;
      await this.calls.assertVisible(actor, item, sections);
      return MediaCatalogueService.title(item);
    });
    if (!found) throw new NotFoundError(SENTENCES.notInLibrary);
    return found;
  }

  /**
   * The household's Plex film with one of these ids, as the member may see it; null when it is not
   * there, Plex is not connected, or does not answer (the badge is a nicety, never an error).
   */
  async findMovie(actor: UserActor, ids: TitleIds): Promise<{ ratingKey: string } | null> {
    if (!ids.tmdb && !ids.imdb) return null;
    try {
      return await this.library(actor, async (s, sections) => {
        for (const section of (await s.client.sections(s.token)).filter((x) => x.type === 'movie' && !sections.hidden(x.key))) {
          const page = await s.client.sectionItems(s.token, section.key, { type: 1, includeGuids: true });
          for (const item of page.items) {
            const r = resolveMedia(item).ids;
            const same = (ids.tmdb !== null && r.tmdb === ids.tmdb) || (ids.imdb !== null && r.imdb === ids.imdb);
            if (same && sections.sees(item)) return { ratingKey: item.ratingKey };
          }
        }
        return null;
      });
    } catch (err) {
      // viaShared turned Plex's failure into its sentence; for a badge that is only "not known"
      if (isMediaFailure(err) || err instanceof AppError) return null;
      throw err;
    }
  }

  /**
   * The member's own viewed state of a show's episodes on the household's Plex (their own server
   * token); null when they have no token for it or Plex does not answer.
   */
  async episodeViews(actor: UserActor, showRatingKey: string): Promise<EpisodeView[] | null> {
    const shared = await this.d.connection.shared();
    const token = shared ? await this.d.connection.memberServerToken(actor.id) : null;
    if (!shared || !token) return null;
    try {
      const leaves = await shared.client.allLeaves(token, showRatingKey);
      return leaves.flatMap((e) => (e.type === 'episode' && e.parentIndex !== null && e.index !== null ? [{ season: e.parentIndex, episode: e.index, watched: e.viewCount > 0 }] : []));
    } catch (err) {
      if (isMediaFailure(err)) return null;
      throw err;
    }
  }
}
