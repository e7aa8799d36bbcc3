// The household's library as members see it (spec rules 2, 4, 5 and 7):
// - feeds (recent, ondeck, hubs, sessions), meta and find read through the shared server with the
//   shared token (rule 2); what is personal (resume point, watched) is read on the same server with
//   the member's own server token and laid over the shared answer, so nobody sees another member's
//   progress (the shared token is the owner's: its Continue Watching is the owner's own);
// - rule 4: an item's in-app route from its GUIDs, a show's resolution cached 30 days
//   (media_resolutions) so a show's detail call is made once a month, not per feed;
// - watchlist through the discover provider and watched/progress through the server, both with the
//   member's own token; reading an item with that token writes media_progress (server to app), an
//   action writes it and pushes it (app to server, rule 5);
// - a member's private library (the export's home videos) is theirs alone: every list drops items
//   of another member's private section and one title, a watchlist or watched action on such an
//   item is a 404, admins included (PrivateSections, one cached lookup per request); a feed drops
//   them before its limit is taken, reading a few more pages of the server's list when it must
//   (fill(): at most FILL_PAGES calls), so another member's new videos never shorten a page;
// - rule 7: no shared server or no linked account: feeds answer empty, never an error. A down
//   server or a refused shared token is a sentence (503), never a raw code or a 500.
import type { PlexDiscoverClient, PlexItem } from '../../adapters/media-server/plex.js';
import { isMediaServerOutage, mediaServerAppError, mediaServerFailure } from '../../adapter-errors/media-server.js';
import type { UserActor } from '../../actor.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { parseGuid, RESOLUTION_TTL_MS, resolveMedia, titleYearKey, type Resolution, type ResolvableShow } from './guids.js';
import { routeOf, toMediaItem } from './items.js';
import type { ProgressStore } from './library-store.js';
import type { MediaConnection, PrivateSections, ProgressRow, ResolutionCache, SectionVisibility, SharedServer, WatchedLookup } from './parts.js';
import type { FeedResponse, FindResponse, HubsResponse, MediaItem, MetaResponse, SessionsResponse } from './schema.js';

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
interface Caller {
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
const PERSONAL_HUB = /continue|ondeck|on_deck|recentlyviewed|inprogress/i;
/** A feed is read in at most this many pages to fill one answer (never an unbounded walk of the library). */
const FILL_PAGES = 4;
/** The largest page asked for while filling (a page doubles after each one that was not enough). */
const FILL_PAGE_MAX = 200;
/** Played at this share of the duration (the fake's and a common Plex threshold). */
const PLAYED_SHARE = 0.9;

const SENTENCES = {
  notConnected: 'The household’s Plex is not connected yet. An admin can connect it in the admin settings.',
  notInLibrary: 'That title is not in the household’s library any more.',
  linkNeeded: 'Link your own Plex account on the Media page first: your watchlist and what you have watched are kept with it.',
  noAccess: 'Your Plex account has no access to the household’s server, so Hearth cannot keep your watched state there. Ask an admin to share the server with you.',
  personal: 'Home videos cannot go on a Plex watchlist.',
  unknownToPlex: 'Plex does not know this title, so it cannot go on a watchlist.',
} as const;

const isFailure = (err: unknown, ...failures: string[]): boolean => failures.includes(mediaServerFailure(err) ?? '');
/** Any media server failure (the adapter's), as opposed to a bug. */
const isMediaFailure = (err: unknown): boolean => mediaServerFailure(err) !== null;

export class MediaLibraryService implements WatchedLookup {
  constructor(private readonly d: MediaLibraryDeps) {}

  // ---- who is asking -----------------------------------------------------------------------

  /** Rule 7: null when the server is not configured or the member has not linked. */
  private async caller(actor: UserActor): Promise<Caller | null> {
    const shared = await this.d.connection.shared();
    if (!shared) return null;
    const account = await this.d.connection.memberToken(actor.id);
    if (!account) return null;
    const server = await this.d.connection.memberServerToken(actor.id);
    return { userId: actor.id, shared, account, server, sections: await this.d.privateSections.viewFor(actor.id) };
  }

  /** The items this member may see (another member's private library dropped), remembered for /img. */
  private visible<T extends PlexItem>(sections: SectionVisibility, items: readonly T[]): T[] {
    this.d.privateSections.remember(items);
    return items.filter((i) => !sections.hidden(i.librarySectionId));
  }

  /**
   * Up to `want` items this member may see from a paged feed, newest first: pages are read until
   * enough are left after another member's private items are dropped, or the feed ends. Bounded:
   * at most FILL_PAGES calls, the page growing from `want` to FILL_PAGE_MAX items.
   */
  private async fill(sections: SectionVisibility, want: number, page: (start: number, size: number) => Promise<PlexItem[]>): Promise<PlexItem[]> {
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

  /** Another member's private item is a 404, the same answer as an item that is not there. */
  private async assertVisible(actor: UserActor, item: PlexItem, sections?: SectionVisibility): Promise<void> {
    this.d.privateSections.remember([item]);
    const view = sections ?? (await this.d.privateSections.viewFor(actor.id));
    if (view.hidden(item.librarySectionId)) throw new NotFoundError(SENTENCES.notInLibrary);
  }

  /** A call with the shared token; its failures become sentences (and the connection hears of them). */
  private async viaShared<T>(shared: SharedServer, call: (s: SharedServer) => Promise<T>): Promise<T> {
    try {
      return await call(shared);
    } catch (err) {
      throw await this.sharedFailure(err);
    }
  }

  private async sharedFailure(err: unknown): Promise<unknown> {
    if (mediaServerFailure(err, 'server') === 'unauthorized') await this.d.connection.reportShared('unauthorized');
    else if (isMediaServerOutage(err)) await this.d.connection.reportShared('unreachable');
    return mediaServerAppError(err, { notFound: SENTENCES.notInLibrary });
  }

  /** A failed call with the member's own token: a refusal marks their link ("link again"). */
  private async memberFailure(userId: string, err: unknown): Promise<unknown> {
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
  private async personal(c: Caller, ratingKeys: readonly string[]): Promise<Map<string, PlexItem> | null> {
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
  private async recordFromServer(userId: string, items: readonly PlexItem[]): Promise<void> {
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
  private view(item: PlexItem, mine: Map<string, PlexItem> | null, route?: Resolution | null): MediaItem {
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
    const showGuid = MediaLibraryService.showGuidOf(item);
    const showTitle = item.type === 'show' ? item.title : (item.type === 'episode' ? item.grandparentTitle : item.parentTitle) ?? item.title;
    const key = MediaLibraryService.cacheKey(showGuid, showTitle, item.type === 'show' ? item.year : null);
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
  private async discoverKey(account: string, item: PlexItem, r: Resolution): Promise<string | null> {
    if (r.kind === 'personal') return null;
    if (r.discoverKey) return r.discoverKey;
    const guid = r.kind === 'show' ? MediaLibraryService.showGuidOf(item) : item.guid;
    const key = MediaLibraryService.cacheKey(guid, r.title, r.year);
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

  // ---- feeds ---------------------------------------------------------------------------------

  /**
   * Recently added across every section: movies (home videos included) and episodes (type 4, so
   * a new episode of an old show is noticed); several new episodes of one season show once, as
   * the season, at the time of its newest episode.
   */
  async recent(actor: UserActor, limit: number): Promise<FeedResponse> {
    const c = await this.caller(actor);
    if (!c) return { items: [] };
    // filtered before the limit is taken: another member's new home videos must not shorten the page
    const { movies, episodes } = await this.viaShared(c.shared, async (s) => ({
      movies: await this.fill(c.sections, limit, (start, size) => s.client.recentlyAdded(s.token, { type: 1, start, size })),
      episodes: await this.fill(c.sections, limit * 4, (start, size) => s.client.recentlyAdded(s.token, { type: 4, start, size })),
    }));
    const bySeason = new Map<string, PlexItem[]>();
    for (const e of episodes) {
      const k = e.parentRatingKey ?? `ep:${e.ratingKey}`;
      bySeason.set(k, [...(bySeason.get(k) ?? []), e]);
    }
    const entries: PlexItem[] = [...movies];
    for (const [seasonKey, eps] of bySeason) {
      const newest = eps.reduce((a, b) => ((b.addedAt ?? 0) > (a.addedAt ?? 0) ? b : a));
      if (eps.length === 1 || seasonKey.startsWith('ep:')) entries.push(newest);
      else entries.push(seasonOf(newest));
    }
    entries.sort((a, b) => (b.addedAt ?? 0) - (a.addedAt ?? 0));
    const top = entries.slice(0, limit);
    const mine = await this.personal(c, top.map((i) => i.ratingKey));
    // one after another: the seasons of one show share its (cached) resolution and its one detail call
    const routes = await this.viaShared(c.shared, async (s) => {
      const out: Resolution[] = [];
      for (const i of top) out.push(await this.resolve(s.token, s.client, i));
      return out;
    });
    return { items: top.map((i, n) => this.view(i, mine, routes[n])) };
  }

  /** Continue watching: the member's own on-deck, read with their own token (never the owner's). */
  async onDeck(actor: UserActor, limit: number): Promise<FeedResponse> {
    const c = await this.caller(actor);
    if (!c?.server) return { items: [] };
    let items: PlexItem[];
    try {
      items = await c.shared.client.onDeck(c.server);
    } catch (err) {
      if (isFailure(err, 'unauthorized')) {
        await this.d.connection.reportMemberUnauthorized(c.userId);
        return { items: [] };
      }
      throw await this.sharedFailure(err);
    }
    const top = this.visible(c.sections, items).slice(0, limit);
    await this.recordFromServer(c.userId, top);
    return { items: top.map((i) => toMediaItem(i, { personal: true })) };
  }

  /** The server's home hubs, without the ones made of the shared account's own watching. */
  async hubs(actor: UserActor, limit: number): Promise<HubsResponse> {
    const c = await this.caller(actor);
    if (!c) return { hubs: [] };
    const hubs = await this.viaShared(c.shared, async (s) => {
      const out: Array<{ hubIdentifier: string; title: string; items: PlexItem[] }> = [];
      for (const h of await s.client.hubs(s.token, { count: limit })) {
        if (PERSONAL_HUB.test(h.hubIdentifier)) continue;
        let items = this.visible(c.sections, h.items);
        // another member's private items took places in the hub: the rest comes from the hub's own list
        if (items.length < limit && h.more && h.key && items.length < h.items.length) {
          const key = h.key;
          const rest = await this.fill(c.sections, limit - items.length, (start, size) => s.client.hubItems(s.token, key, { start: h.items.length + start, size }));
          const seen = new Set(items.map((i) => i.ratingKey));
          items = [...items, ...rest.filter((i) => !seen.has(i.ratingKey))];
        }
        if (items.length > 0) out.push({ hubIdentifier: h.hubIdentifier, title: h.title, items });
      }
      return out;
    });
    const mine = await this.personal(c, hubs.flatMap((h) => h.items.map((i) => i.ratingKey)));
    return { hubs: hubs.map((h) => ({ id: h.hubIdentifier, title: h.title, items: h.items.slice(0, limit).map((i) => this.view(i, mine)) })) };
  }

  /**
   * Now playing in the house. Only the server's owner may list sessions: another token answers empty.
   * Decided (issue 19): other members' names and what they watch stay on this list, as the owner
   * sees them in Plex and as a household sharing one TV expects; what plays from another member's
   * private library never does (dropped by its section, whoever plays it; media-private.test.ts).
   */
  async sessions(actor: UserActor): Promise<SessionsResponse> {
    const c = await this.caller(actor);
    if (!c) return { sessions: [] };
    let list;
    try {
      list = await c.shared.client.sessions(c.shared.token);
    } catch (err) {
      // a friend's shared token: 403 (PMS 1.47+) or 401 (up to 1.46) on this owner-only list
      if (isFailure(err, 'forbidden', 'unauthorized')) return { sessions: [] };
      throw await this.sharedFailure(err);
    }
    const states = new Set(['playing', 'paused', 'buffering', 'stopped']);
    const shown = new Set(this.visible(c.sections, list.map((s) => s.item)));
    return {
      sessions: list.filter((s) => shown.has(s.item)).map((s) => ({
        item: toMediaItem(s.item),
        user: s.user.title || null,
        player: s.player.title || s.player.product || null,
        state: (states.has(s.player.state) ? s.player.state : 'playing') as 'playing' | 'paused' | 'buffering' | 'stopped',
        progress: s.item.durationMs ? Math.min(1, Math.max(0, s.item.viewOffsetMs / s.item.durationMs)) : 0,
      })),
    };
  }

  // ---- one title ---------------------------------------------------------------------------

  /** The item, its children (seasons or episodes), and whether it is on the member's watchlist. */
  async meta(actor: UserActor, ratingKey: string): Promise<MetaResponse> {
    const shared = await this.d.connection.shared();
    if (!shared) throw new NotFoundError(SENTENCES.notConnected, 'media_not_connected');
    const c = await this.caller(actor);
    const sections = c?.sections ?? (await this.d.privateSections.viewFor(actor.id));
    const { item, children } = await this.viaShared(shared, async (s) => {
      const found = await s.client.metadata(s.token, ratingKey);
      if (!found) throw new NotFoundError(SENTENCES.notInLibrary);
      await this.assertVisible(actor, found, sections);
      const kids = found.type === 'show' || found.type === 'season' ? await s.client.children(s.token, ratingKey) : [];
      return { item: found, children: this.visible(sections, kids) };
    });
    if (c) await this.pushPending(c, [ratingKey]);
    const mine = c ? await this.personal(c, [item.ratingKey, ...children.map((k) => k.ratingKey)]) : null;
    let route = await this.viaShared(shared, (s) => this.resolve(s.token, s.client, item));
    let onWatchlist: boolean | null = null;
    if (c?.account && route.kind !== 'personal') {
      try {
        const key = await this.discoverKey(c.account, item, route);
        if (key) {
          route = { ...route, discoverKey: key };
          const list = await this.d.discover.watchlist(c.account, { size: 200 });
          onWatchlist = list.items.some((w) => w.key === key);
        }
      } catch (err) {
        if (isFailure(err, 'unauthorized')) await this.d.connection.reportMemberUnauthorized(c.userId);
        else if (!isMediaFailure(err)) throw err;
      }
    }
    return { item: this.view(item, mine, route), children: children.map((k) => this.view(k, mine)), onWatchlist };
  }

  /** Is a title in the library: shows by show-database id, movies (and shows) by title plus year. */
  async find(actor: UserActor, q: FindInput): Promise<FindResponse> {
    const c = await this.caller(actor);
    if (!c) return { found: false, item: null };
    const hit = await this.viaShared(c.shared, async (s) => {
      const wanted = q.type === 'show' ? 'show' : 'movie';
      // another member's private library is not searched
      const sections = (await s.client.sections(s.token)).filter((x) => x.type === wanted && !c.sections.hidden(x.key));
      for (const section of sections) {
        if ('id' in q) {
          const page = await s.client.sectionItems(s.token, section.key, { type: 2, includeGuids: true });
          for (const show of page.items) {
            const r = await this.resolve(s.token, s.client, show);
            if (r.kind === 'show' && r.ids[q.source] === q.id) return { item: show, route: r };
          }
          continue;
        }
        const filters: Record<string, string> = { title: `=${q.title}` };
        if (q.year !== undefined) filters.year = String(q.year);
        const page = await s.client.sectionItems(s.token, section.key, { type: wanted === 'show' ? 2 : 1, filters });
        const item = page.items[0];
        if (item) return { item, route: await this.resolve(s.token, s.client, item) };
      }
      return null;
    });
    if (!hit) return { found: false, item: null };
    const mine = await this.personal(c, [hit.item.ratingKey]);
    return { found: true, item: this.view(hit.item, mine, hit.route) };
  }

  // ---- the member's own actions ------------------------------------------------------------

  /** Adds (or removes) a title on the member's own Plex watchlist, with their account token. */
  async watchlist(actor: UserActor, input: WatchlistInput): Promise<{ onWatchlist: boolean }> {
    const account = await this.d.connection.memberToken(actor.id);
    if (!account) throw new ConflictError('media_link_needed', SENTENCES.linkNeeded);
    let key: string | null;
    if ('discoverKey' in input) key = input.discoverKey;
    else {
      const shared = await this.d.connection.shared();
      if (!shared) throw new ConflictError('media_not_connected', SENTENCES.notConnected);
      const { item, route } = await this.viaShared(shared, async (s) => {
        const found = await s.client.metadata(s.token, input.ratingKey);
        if (!found) throw new NotFoundError(SENTENCES.notInLibrary);
        await this.assertVisible(actor, found);
        return { item: found, route: await this.resolve(s.token, s.client, found) };
      });
      if (route.kind === 'personal') throw new UnprocessableError('media_not_watchlistable', SENTENCES.personal);
      try {
        key = await this.discoverKey(account, item, route);
      } catch (err) {
        throw await this.memberFailure(actor.id, err);
      }
      if (!key) throw new UnprocessableError('media_not_watchlistable', SENTENCES.unknownToPlex);
    }
    try {
      if (input.remove) await this.d.discover.removeFromWatchlist(account, key);
      else await this.d.discover.addToWatchlist(account, key);
    } catch (err) {
      throw await this.memberFailure(actor.id, err);
    }
    return { onWatchlist: !input.remove };
  }

  /** The member's server token for their own watch state, or a sentence saying why there is none. */
  private async ownServerToken(actor: UserActor): Promise<{ shared: SharedServer; token: string }> {
    const shared = await this.d.connection.shared();
    if (!shared) throw new ConflictError('media_not_connected', SENTENCES.notConnected);
    if (!(await this.d.connection.memberToken(actor.id))) throw new ConflictError('media_link_needed', SENTENCES.linkNeeded);
    const token = await this.d.connection.memberServerToken(actor.id);
    if (!token) throw new ConflictError('media_no_access', SENTENCES.noAccess);
    return { shared, token };
  }

  /** The item as the member's token sees it; 404 when the server does not know it. */
  private async ownItem(actor: UserActor, shared: SharedServer, token: string, ratingKey: string): Promise<PlexItem | null> {
    try {
      const item = await shared.client.metadata(token, ratingKey);
      if (!item) throw new NotFoundError(SENTENCES.notInLibrary);
      await this.assertVisible(actor, item);
      return item;
    } catch (err) {
      if (isFailure(err, 'unreachable', 'timeout')) return null;
      throw await this.memberFailure(actor.id, err);
    }
  }

  /** App to server (rule 5): marks played or unplayed with the member's token, and records it. */
  async setWatched(actor: UserActor, ratingKey: string, watched: boolean): Promise<WatchState> {
    const { shared, token } = await this.ownServerToken(actor);
    const item = await this.ownItem(actor, shared, token, ratingKey);
    const before = await this.d.progress.get(actor.id, ratingKey);
    let synced = false;
    if (item) {
      try {
        if (watched) await shared.client.scrobble(token, ratingKey);
        else await shared.client.unscrobble(token, ratingKey);
        synced = true;
      } catch (err) {
        if (!isFailure(err, 'unreachable', 'timeout')) throw await this.memberFailure(actor.id, err);
      }
    }
    const now = this.d.clock.now().toISOString();
    await this.d.progress.upsert({
      userId: actor.id,
      ratingKey,
      positionMs: 0,
      durationMs: item?.durationMs ?? before?.durationMs ?? null,
      completed: watched,
      viewCount: watched ? Math.max(1, (before?.viewCount ?? 0) + (before?.completed ? 0 : 1)) : 0,
      updatedAt: now,
      syncedAt: synced ? now : null,
    });
    return { watched, viewOffsetMs: null, synced };
  }

  /** App to server (rule 5): the member's resume point; near the end it counts as watched. */
  async setProgress(actor: UserActor, ratingKey: string, input: ProgressInput): Promise<WatchState> {
    const { shared, token } = await this.ownServerToken(actor);
    const item = await this.ownItem(actor, shared, token, ratingKey);
    if (item && item.type !== 'movie' && item.type !== 'episode') throw new UnprocessableError('media_not_playable', 'Only a film or an episode has a place to resume from.');
    const durationMs = input.durationMs ?? item?.durationMs ?? null;
    const completed = durationMs !== null && input.positionMs >= durationMs * PLAYED_SHARE;
    let synced = false;
    if (item) {
      try {
        if (input.state === 'stopped') await shared.client.progress(token, ratingKey, input.positionMs);
        else await shared.client.timeline(token, ratingKey, input.state, input.positionMs, durationMs);
        synced = true;
      } catch (err) {
        if (!isFailure(err, 'unreachable', 'timeout')) throw await this.memberFailure(actor.id, err);
      }
    }
    const before = await this.d.progress.get(actor.id, ratingKey);
    const now = this.d.clock.now().toISOString();
    await this.d.progress.upsert({
      userId: actor.id,
      ratingKey,
      positionMs: completed ? 0 : input.positionMs,
      durationMs,
      completed: completed || (before?.completed ?? false),
      viewCount: completed && !before?.completed ? (before?.viewCount ?? 0) + 1 : (before?.viewCount ?? 0),
      updatedAt: now,
      syncedAt: synced ? now : null,
    });
    return { watched: completed || (before?.completed ?? false), viewOffsetMs: completed ? null : input.positionMs, synced };
  }

  /** Changes Hearth recorded while the server was away are pushed when the member next opens the title. */
  private async pushPending(c: Caller, ratingKeys: readonly string[]): Promise<void> {
    if (!c.server) return;
    const pending = (await this.d.progress.list(c.userId, ratingKeys)).filter((r) => r.syncedAt === null);
    for (const row of pending) {
      try {
        if (row.completed) await c.shared.client.scrobble(c.server, row.ratingKey);
        else if (row.positionMs > 0) await c.shared.client.progress(c.server, row.ratingKey, row.positionMs);
        else await c.shared.client.unscrobble(c.server, row.ratingKey);
        await this.d.progress.upsert({ ...row, syncedAt: this.d.clock.now().toISOString() });
      } catch (err) {
        if (!isMediaFailure(err)) throw err;
        if (isFailure(err, 'unauthorized')) await this.d.connection.reportMemberUnauthorized(c.userId);
        return;
      }
    }
  }

  /**
   * For the export's sweep (rule 6): the keys this member has watched, by the server's view count
   * (their own token) or Hearth's own completed flag.
   */
  async watchedKeys(userId: string, ratingKeys: readonly string[]): Promise<Set<string>> {
    const out = new Set((await this.d.progress.list(userId, ratingKeys)).filter((r: ProgressRow) => r.completed).map((r) => r.ratingKey));
    const shared = await this.d.connection.shared();
    const token = shared ? await this.d.connection.memberServerToken(userId) : null;
    if (!shared || !token || ratingKeys.length === 0) return out;
    try {
      for (const i of await shared.client.metadataMany(token, ratingKeys)) if (i.viewCount > 0) out.add(i.ratingKey);
    } catch (err) {
      if (isFailure(err, 'unauthorized')) await this.d.connection.reportMemberUnauthorized(userId);
      else if (!isMediaFailure(err)) throw err;
    }
    return out;
  }
}

/** A season entry made from its newest episode (recent's grouping): no extra call. */
function seasonOf(e: PlexItem): PlexItem {
  return {
    ...e,
    ratingKey: e.parentRatingKey!,
    type: 'season',
    title: e.parentTitle ?? `Season ${e.parentIndex ?? ''}`.trim(),
    guid: e.parentGuid,
    guids: [],
    summary: null,
    index: e.parentIndex,
    parentIndex: null,
    parentRatingKey: e.grandparentRatingKey,
    grandparentRatingKey: null,
    parentTitle: e.grandparentTitle,
    grandparentTitle: null,
    parentGuid: e.grandparentGuid,
    grandparentGuid: null,
    thumb: e.parentThumb ?? e.grandparentThumb,
    parentThumb: e.grandparentThumb,
    grandparentThumb: null,
    art: e.art,
    durationMs: null,
    viewCount: 0,
    viewOffsetMs: 0,
    lastViewedAt: null,
    leafCount: null,
    viewedLeafCount: null,
    parts: [],
  };
}
