// The media library's calls to the household's server, shared by its feeds, titles and the
// member's own actions (library-service.ts): who is asking (rule 7), what they may see (another
// member's private sections dropped), a failure as its answer (through the one media server
// mapper) with the connection told, the member's own state laid over shared answers, and rule 4
// (where a title lives in the app, and its discover key for the watchlist).
import type { PlexDiscoverClient, PlexItem } from '../../adapters/media-server/plex.js';
import { isMediaServerOutage, mediaServerAppError, mediaServerFailure } from '../../adapter-errors/media-server.js';
import type { UserActor } from '../../actor.js';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { parseGuid, RESOLUTION_TTL_MS, resolveMedia, titleYearKey, type Resolution, type ResolvableShow } from './guids.js';
import { routeOf, toMediaItem } from './items.js';
import type { ProgressStore } from './library-store.js';
import type { MediaConnection, PrivateSections, ResolutionCache, SectionVisibility, SharedServer } from './parts.js';
import type { MediaItem } from './schema.js';

export interface MediaLibraryDeps {
  connection: MediaConnection;
  discover: PlexDiscoverClient;
  resolutions: ResolutionCache;
  progress: ProgressStore;
  /** Members' private sections: another member's items are dropped or a 404. */
  privateSections: PrivateSections;
  clock: Clock;
  logger: Logger;
}

export type FindInput = { type: 'show'; source: 'tvdb' | 'tmdb' | 'imdb'; id: string } | { type: 'movie' | 'show'; title: string; year?: number };
export type WatchlistInput = { ratingKey: string; remove?: boolean } | { discoverKey: string; remove?: boolean };
export interface ProgressInput {
  positionMs: number;
  durationMs?: number;
  state: 'playing' | 'paused' | 'stopped';
}
export interface WatchState {
  watched: boolean;
  viewOffsetMs: number | null;
  synced: boolean;
}

/** The member's side of a request: the shared server and their own tokens. */
export interface Caller {
  userId: string;
  shared: SharedServer;
  /** Their plex.tv account token (watchlist); null: not linked, or refused. */
  account: string | null;
  /** Their token for the shared server (their own watch state); null: none or no access. */
  server: string | null;
  /** Which sections are another member's private library. */
  sections: SectionVisibility;
}

/** Hubs made of the token's own watching: the shared token's are the owner's, never shown to others. */
export const PERSONAL_HUB = /continue|ondeck|on_deck|recentlyviewed|inprogress/i;
/** A feed is read in at most this many pages to fill one answer (never an unbounded walk of the library). */
export const FILL_PAGES = 4;
/** The largest page asked for while filling (a page doubles after each one that was not enough). */
export const FILL_PAGE_MAX = 200;
/** Played at this share of the duration (the fake's and a common Plex threshold). */
export const PLAYED_SHARE = 0.9;

export const SENTENCES = {
  notConnected: 'The household’s Plex is not connected yet. An admin can connect it in the admin settings.',
  notInLibrary: 'That title is not in the household’s library any more.',
  linkNeeded: 'Link your own Plex account on the Media page first: your watchlist and what you have watched are kept with it.',
  noAccess: 'Your Plex account has no access to the household’s server, so Hearth cannot keep your watched state there. Ask an admin to share the server with you.',
  personal: 'Home videos cannot go on a Plex watchlist.',
  unknownToPlex: 'Plex does not know this title, so it cannot go on a watchlist.',
} as const;

export const isFailure = (err: unknown, ...failures: string[]): boolean => failures.includes(mediaServerFailure(err) ?? '');
/** Any media server failure (the adapter's), as opposed to a bug. */
export const isMediaFailure = (err: unknown): boolean => mediaServerFailure(err) !== null;

export class MediaLibraryCalls {
  constructor(private readonly d: MediaLibraryDeps) {}

  // ---- who is asking -----------------------------------------------------------------------

  /** Rule 7: null when the server is not configured or the member has not linked. */
  async caller(actor: UserActor): Promise<Caller | null> {
    const shared = await this.d.connection.shared();
    if (!shared) return null;
    const account = await this.d.connection.memberToken(actor.id);
    if (!account) return null;
    const server = await this.d.connection.memberServerToken(actor.id);
    return { userId: actor.id, shared, account, server, sections: await this.d.privateSections.viewFor(actor.id) };
  }

  /** The items this member may see (another member's private library dropped), remembered for /img. */
  visible<T extends PlexItem>(sections: SectionVisibility, items: readonly T[]): T[] {
    this.d.privateSections.remember(items);
    return items.filter((i) => sections.sees(i));
  }

  /**
   * Up to `want` items this member may see from a paged feed, newest first: pages are read until
   * enough are left after another member's private items are dropped, or the feed ends. Bounded:
   * at most FILL_PAGES calls, the page growing from `want` to FILL_PAGE_MAX items.
   */
  async fill(sections: SectionVisibility, want: number, page: (start: number, size: number) => Promise<PlexItem[]>): Promise<PlexItem[]> {
    const out: PlexItem[] = [];
    const seen = new Set<string>();
    let start = 0;
    let size = want;
    for (let n = 0; n < FILL_PAGES && out.length < want; n++) {
      const got = await page(start, size);
      for (const i of this.visible(sections, got)) {
        // an item added meanwhile shifts the pages by one: never list one twice
        if (seen.has(i.ratingKey)) continue;
        seen.add(i.ratingKey);
        out.push(i);
      }
      if (got.length < size) break;
      start += got.length;
      size = Math.min(FILL_PAGE_MAX, size * 2);
    }
    return out.slice(0, want);
  }

  /** Another member's private item, or one rated above the member's Media level, is a 404, the same answer as an item that is not there. */
  async assertVisible(actor: UserActor, item: PlexItem, sections?: SectionVisibility): Promise<void> {
    this.d.privateSections.remember([item]);
    const view = sections ?? (await this.d.privateSections.viewFor(actor.id));
    if (!view.sees(item)) throw new NotFoundError(SENTENCES.notInLibrary);
  }

  /** A call with the shared token; its failures become sentences (and the connection hears of them). */
  async viaShared<T>(shared: SharedServer, call: (s: SharedServer) => Promise<T>): Promise<T> {
    try {
      return await call(shared);
    } catch (err) {
      throw await this.sharedFailure(err);
    }
  }

  async sharedFailure(err: unknown): Promise<unknown> {
    if (mediaServerFailure(err, 'server') === 'unauthorized') await this.d.connection.reportShared('unauthorized');
    else if (isMediaServerOutage(err)) await this.d.connection.reportShared('unreachable');
    return mediaServerAppError(err, { notFound: SENTENCES.notInLibrary });
  }

  /** A failed call with the member's own token: a refusal marks their link ("link again"). */
  async memberFailure(userId: string, err: unknown): Promise<unknown> {
    if (isFailure(err, 'unauthorized')) {
      await this.d.connection.reportMemberUnauthorized(userId);
      return mediaServerAppError(err, { token: 'member' });
    }
    // the household's server down is the shared connection's news; Plex's watchlist service is not
    if (mediaServerFailure(err, 'server')) return this.sharedFailure(err);
    return mediaServerAppError(err, { token: 'member' });
  }

  // ---- the member's own state laid over shared answers ---------------------------------------

  /**
   * The items as the member sees them (their token): keyed by ratingKey, written to media_progress
   * (server to app). A refused token marks the link; any other failure leaves the items impersonal.
   */
  async personal(c: Caller, ratingKeys: readonly string[]): Promise<Map<string, PlexItem> | null> {
    if (!c.server || ratingKeys.length === 0) return null;
    let mine: PlexItem[];
    try {
      mine = await c.shared.client.metadataMany(c.server, ratingKeys);
    } catch (err) {
      if (isFailure(err, 'unauthorized')) {
        await this.d.connection.reportMemberUnauthorized(c.userId);
        return null;
      }
      if (isMediaFailure(err)) {
        this.d.logger.warn({ failure: mediaServerFailure(err) }, 'Media library: the member’s own watch state could not be read');
        return null;
      }
      throw err;
    }
    await this.recordFromServer(c.userId, mine);
    return new Map(mine.map((i) => [i.ratingKey, i]));
  }

  /** Server to app (rule 5): what the member's token says, unless Hearth still has a change to push. */
  async recordFromServer(userId: string, items: readonly PlexItem[]): Promise<void> {
    const leaves = items.filter((i) => i.type === 'movie' || i.type === 'episode');
    if (leaves.length === 0) return;
    const known = new Map((await this.d.progress.list(userId, leaves.map((i) => i.ratingKey))).map((r) => [r.ratingKey, r]));
    const now = this.d.clock.now().toISOString();
    for (const i of leaves) {
      const row = known.get(i.ratingKey);
      if (row && row.syncedAt === null) continue;
      const completed = i.viewCount > 0;
      if (!row && !completed && i.viewOffsetMs === 0) continue;
      if (row && row.completed === completed && row.positionMs === i.viewOffsetMs && row.viewCount === i.viewCount) continue;
      await this.d.progress.upsert({ userId, ratingKey: i.ratingKey, positionMs: i.viewOffsetMs, durationMs: i.durationMs, completed, viewCount: i.viewCount, updatedAt: now, syncedAt: now });
    }
  }

  /** The shared item with the member's own fields, as the web app sees it. */
  view(item: PlexItem, mine: Map<string, PlexItem> | null, route?: Resolution | null): MediaItem {
    const own = mine?.get(item.ratingKey);
    const merged: PlexItem = own ? { ...item, viewCount: own.viewCount, viewOffsetMs: own.viewOffsetMs, lastViewedAt: own.lastViewedAt, leafCount: own.leafCount ?? item.leafCount, viewedLeafCount: own.viewedLeafCount } : item;
    return toMediaItem(merged, { personal: !!own, route: route === undefined ? undefined : route ? routeOf(route) : null });
  }

  // ---- rule 4 --------------------------------------------------------------------------------

  private static cacheKey(guid: string | null | undefined, title: string, year: number | null): string {
    const g = guid?.split('?')[0];
    return g && parseGuid(g).source !== 'unknown' ? g : `title:${titleYearKey(title, year)}`;
  }

  /** The item's show-level GUID (a show's own, an episode's grandparent, a season's parent). */
  private static showGuidOf(item: PlexItem): string | null {
    if (item.type === 'show') return item.guid;
    if (item.type === 'episode') return item.grandparentGuid;
    if (item.type === 'season') return item.parentGuid;
    return null;
  }

  /**
   * Rule 4 with the cache: a movie keys on title plus year (no lookup); a show, season or episode
   * on its show's id, read from the show's Guid array (one detail call for a plex:// show, then
   * cached 30 days) or from a legacy GUID; without ids, the show's title plus year.
   */
  async resolve(token: string, client: SharedServer['client'], item: PlexItem): Promise<Resolution> {
    const own = resolveMedia(item);
    if (own.kind !== 'show') return own;
    const showGuid = MediaLibraryCalls.showGuidOf(item);
    const showTitle = item.type === 'show' ? item.title : (item.type === 'episode' ? item.grandparentTitle : item.parentTitle) ?? item.title;
    const key = MediaLibraryCalls.cacheKey(showGuid, showTitle, item.type === 'show' ? item.year : null);
    const cached = await this.d.resolutions.get(key, RESOLUTION_TTL_MS);
    if (cached && cached.kind === 'show') {
      const show: ResolvableShow = { title: cached.title, year: cached.year, guid: showGuid, guids: Object.entries(cached.ids).flatMap(([s, id]) => (id ? [`${s}://${id}`] : [])) };
      const r = resolveMedia(item, show);
      return r.kind === 'show' ? { ...r, discoverKey: r.discoverKey ?? cached.discoverKey } : r;
    }
    let show: PlexItem | null = item.type === 'show' ? item : null;
    if (parseGuid(showGuid).source === 'plex' && (show === null || show.guids.length === 0)) {
      const showKey = item.type === 'show' ? item.ratingKey : item.type === 'episode' ? item.grandparentRatingKey : item.parentRatingKey;
      if (showKey) show = (await client.metadata(token, showKey)) ?? show;
    }
    // a season's show is its parent: name it, so the fallback keys on the show's title, not "Season 1"
    const showLike: ResolvableShow | null = item.type === 'show' ? null : (show ?? { title: showTitle, year: null, guid: showGuid, guids: [] });
    const r = resolveMedia(item.type === 'show' && show ? show : item, showLike);
    if (r.kind === 'show') await this.d.resolutions.put(key, { ...r, season: null, episode: null });
    return r;
  }

  /** The discover key for the watchlist: from the plex:// GUID, else Plex's matches by id, then title and year. */
  async discoverKey(account: string, item: PlexItem, r: Resolution): Promise<string | null> {
    if (r.kind === 'personal') return null;
    if (r.discoverKey) return r.discoverKey;
    const guid = r.kind === 'show' ? MediaLibraryCalls.showGuidOf(item) : item.guid;
    const key = MediaLibraryCalls.cacheKey(guid, r.title, r.year);
    const cached = await this.d.resolutions.get(key, RESOLUTION_TTL_MS);
    if (cached?.discoverKey) return cached.discoverKey;
    const type = r.kind === 'show' ? 'show' : 'movie';
    let found: string | null = null;
    for (const source of ['tvdb', 'tmdb', 'imdb'] as const) {
      const id = r.ids[source];
      if (!id) continue;
      const hits = await this.d.discover.matches(account, { type, guid: `${source}://${id}` });
      if (hits[0]) {
        found = hits[0].key;
        break;
      }
    }
    if (!found) found = (await this.d.discover.matches(account, { type, title: r.title, year: r.year }))[0]?.key ?? null;
    if (found) await this.d.resolutions.put(key, r.kind === 'show' ? { ...r, season: null, episode: null, discoverKey: found } : { ...r, discoverKey: found });
    return found;
  }
}
