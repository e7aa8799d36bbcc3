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
// - titles rated above the member's Media level (content dials) are dropped too, and each feed and
//   find answer says how many it dropped (hiddenByContent, the view's own count: never another
//   member's private items), so the page can say that some titles are hidden;
// - rule 7: no shared server or no linked account: feeds answer empty, never an error. A down
//   server or a refused shared token is a sentence (503), never a raw code or a 500.
import type { PlexItem } from '../../adapters/media-server/plex.js';
import type { UserActor } from '../../actor.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../../errors.js';
import type { Resolution } from './guids.js';
import { seasonOf, toMediaItem } from './items.js';
import type { ProgressRow, SharedServer, WatchedLookup } from './parts.js';
import { isFailure, isMediaFailure, MediaLibraryCalls, PERSONAL_HUB, PLAYED_SHARE, SENTENCES, type Caller, type FindInput, type MediaLibraryDeps, type ProgressInput, type WatchlistInput, type WatchState } from './library-calls.js';
import type { FeedResponse, FindResponse, HubsResponse, MetaResponse, SessionsResponse } from './schema.js';
// The calls every part shares (who asks, failures, rule 4) are in library-calls.ts.

export type { MediaLibraryDeps } from './library-calls.js';
export type { FindInput, ProgressInput, WatchlistInput, WatchState } from './library-calls.js';

export class MediaLibraryService implements WatchedLookup {
  private readonly calls: MediaLibraryCalls;

  constructor(private readonly d: MediaLibraryDeps) {
    this.calls = new MediaLibraryCalls(d);
  }

  /** Rule 4 (library-calls.ts). */
  resolve(token: string, client: SharedServer['client'], item: PlexItem): Promise<Resolution> {
    return this.calls.resolve(token, client, item);
  }

  // ---- feeds ---------------------------------------------------------------------------------

  /**
   * Recently added across every section: movies (home videos included) and episodes (type 4, so
   * a new episode of an old show is noticed); several new episodes of one season show once, as
   * the season, at the time of its newest episode.
   */
  async recent(actor: UserActor, limit: number): Promise<FeedResponse> {
    const c = await this.calls.caller(actor);
    if (!c) return { items: [], hiddenByContent: 0 };
    // filtered before the limit is taken: another member's new home videos must not shorten the page
    const { movies, episodes } = await this.calls.viaShared(c.shared, async (s) => ({
      movies: await this.calls.fill(c.sections, limit, (start, size) => s.client.recentlyAdded(s.token, { type: 1, start, size })),
      episodes: await this.calls.fill(c.sections, limit * 4, (start, size) => s.client.recentlyAdded(s.token, { type: 4, start, size })),
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
    const mine = await this.calls.personal(c, top.map((i) => i.ratingKey));
    // one after another: the seasons of one show share its (cached) resolution and its one detail call
    const routes = await this.calls.viaShared(c.shared, async (s) => {
      const out: Resolution[] = [];
      for (const i of top) out.push(await this.calls.resolve(s.token, s.client, i));
      return out;
    });
    return { items: top.map((i, n) => this.calls.view(i, mine, routes[n])), hiddenByContent: c.sections.hiddenByContent() };
  }

  /** Continue watching: the member's own on-deck, read with their own token (never the owner's). */
  async onDeck(actor: UserActor, limit: number): Promise<FeedResponse> {
    const c = await this.calls.caller(actor);
    if (!c?.server) return { items: [], hiddenByContent: 0 };
    let items: PlexItem[];
    try {
      items = await c.shared.client.onDeck(c.server);
    } catch (err) {
      if (isFailure(err, 'unauthorized')) {
        await this.d.connection.reportMemberUnauthorized(c.userId);
        return { items: [], hiddenByContent: 0 };
      }
      throw await this.calls.sharedFailure(err);
    }
    const top = this.calls.visible(c.sections, items).slice(0, limit);
    await this.calls.recordFromServer(c.userId, top);
    return { items: top.map((i) => toMediaItem(i, { personal: true })), hiddenByContent: c.sections.hiddenByContent() };
  }

  /** The server's home hubs, without the ones made of the shared account's own watching. */
  async hubs(actor: UserActor, limit: number): Promise<HubsResponse> {
    const c = await this.calls.caller(actor);
    if (!c) return { hubs: [], hiddenByContent: 0 };
    const hubs = await this.calls.viaShared(c.shared, async (s) => {
      const out: Array<{ hubIdentifier: string; title: string; items: PlexItem[] }> = [];
      for (const h of await s.client.hubs(s.token, { count: limit })) {
        if (PERSONAL_HUB.test(h.hubIdentifier)) continue;
        let items = this.calls.visible(c.sections, h.items);
        // another member's private items took places in the hub: the rest comes from the hub's own list
        if (items.length < limit && h.more && h.key && items.length < h.items.length) {
          const key = h.key;
          const rest = await this.calls.fill(c.sections, limit - items.length, (start, size) => s.client.hubItems(s.token, key, { start: h.items.length + start, size }));
          const seen = new Set(items.map((i) => i.ratingKey));
          items = [...items, ...rest.filter((i) => !seen.has(i.ratingKey))];
        }
        if (items.length > 0) out.push({ hubIdentifier: h.hubIdentifier, title: h.title, items });
      }
      return out;
    });
    const mine = await this.calls.personal(c, hubs.flatMap((h) => h.items.map((i) => i.ratingKey)));
    return { hubs: hubs.map((h) => ({ id: h.hubIdentifier, title: h.title, items: h.items.slice(0, limit).map((i) => this.calls.view(i, mine)) })), hiddenByContent: c.sections.hiddenByContent() };
  }

  /**
   * Now playing in the house. Only the server's owner may list sessions: another token answers empty.
   * Decided (issue 19): other members' names and what they watch stay on this list, as the owner
   * sees them in Plex and as a household sharing one TV expects; what plays from another member's
   * private library never does (dropped by its section, whoever plays it; media-private.test.ts).
   */
  async sessions(actor: UserActor): Promise<SessionsResponse> {
    const c = await this.calls.caller(actor);
    if (!c) return { sessions: [], hiddenByContent: 0 };
    let list;
    try {
      list = await c.shared.client.sessions(c.shared.token);
    } catch (err) {
      // a friend's shared token: 403 (PMS 1.47+) or 401 (up to 1.46) on this owner-only list
      if (isFailure(err, 'forbidden', 'unauthorized')) return { sessions: [], hiddenByContent: 0 };
      throw await this.calls.sharedFailure(err);
    }
    const states = new Set(['playing', 'paused', 'buffering', 'stopped']);
    const shown = new Set(this.calls.visible(c.sections, list.map((s) => s.item)));
    return {
      sessions: list.filter((s) => shown.has(s.item)).map((s) => ({
        item: toMediaItem(s.item),
        user: s.user.title || null,
        player: s.player.title || s.player.product || null,
        state: (states.has(s.player.state) ? s.player.state : 'playing') as 'playing' | 'paused' | 'buffering' | 'stopped',
        progress: s.item.durationMs ? Math.min(1, Math.max(0, s.item.viewOffsetMs / s.item.durationMs)) : 0,
      })),
      hiddenByContent: c.sections.hiddenByContent(),
    };
  }

  // ---- one title ---------------------------------------------------------------------------

  /** The item, its children (seasons or episodes), and whether it is on the member's watchlist. */
  async meta(actor: UserActor, ratingKey: string): Promise<MetaResponse> {
    const shared = await this.d.connection.shared();
    if (!shared) throw new NotFoundError(SENTENCES.notConnected, 'media_not_connected');
    const c = await this.calls.caller(actor);
    const sections = c?.sections ?? (await this.d.privateSections.viewFor(actor.id));
    const { item, children } = await this.calls.viaShared(shared, async (s) => {
      const found = await s.client.metadata(s.token, ratingKey);
      if (!found) throw new NotFoundError(SENTENCES.notInLibrary);
      await this.calls.assertVisible(actor, found, sections);
      const kids = found.type === 'show' || found.type === 'season' ? await s.client.children(s.token, ratingKey) : [];
      return { item: found, children: this.calls.visible(sections, kids) };
    });
    if (c) await this.pushPending(c, [ratingKey]);
    const mine = c ? await this.calls.personal(c, [item.ratingKey, ...children.map((k) => k.ratingKey)]) : null;
    let route = await this.calls.viaShared(shared, (s) => this.calls.resolve(s.token, s.client, item));
    let onWatchlist: boolean | null = null;
    if (c?.account && route.kind !== 'personal') {
      try {
        const key = await this.calls.discoverKey(c.account, item, route);
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
    return { item: this.calls.view(item, mine, route), children: children.map((k) => this.calls.view(k, mine)), onWatchlist };
  }

  /** Is a title in the library: shows by show-database id, movies (and shows) by title plus year. */
  async find(actor: UserActor, q: FindInput): Promise<FindResponse> {
    const c = await this.calls.caller(actor);
    if (!c) return { found: false, item: null, hiddenByContent: 0 };
    const hit = await this.calls.viaShared(c.shared, async (s) => {
      const wanted = q.type === 'show' ? 'show' : 'movie';
      // another member's private library is not searched
      const sections = (await s.client.sections(s.token)).filter((x) => x.type === wanted && !c.sections.hidden(x.key));
      for (const section of sections) {
        if ('id' in q) {
          const page = await s.client.sectionItems(s.token, section.key, { type: 2, includeGuids: true });
          for (const show of page.items) {
            const r = await this.calls.resolve(s.token, s.client, show);
            // a show rated above the member's Media level is not found
            if (r.kind === 'show' && r.ids[q.source] === q.id && c.sections.sees(show)) return { item: show, route: r };
          }
          continue;
        }
        const filters: Record<string, string> = { title: `=${q.title}` };
        if (q.year !== undefined) filters.year = String(q.year);
        const page = await s.client.sectionItems(s.token, section.key, { type: wanted === 'show' ? 2 : 1, filters });
        const item = page.items.find((i) => c.sections.sees(i));
        if (item) return { item, route: await this.calls.resolve(s.token, s.client, item) };
      }
      return null;
    });
    if (!hit) return { found: false, item: null, hiddenByContent: c.sections.hiddenByContent() };
    const mine = await this.calls.personal(c, [hit.item.ratingKey]);
    return { found: true, item: this.calls.view(hit.item, mine, hit.route), hiddenByContent: c.sections.hiddenByContent() };
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
      const { item, route } = await this.calls.viaShared(shared, async (s) => {
        const found = await s.client.metadata(s.token, input.ratingKey);
        if (!found) throw new NotFoundError(SENTENCES.notInLibrary);
        await this.calls.assertVisible(actor, found);
        return { item: found, route: await this.calls.resolve(s.token, s.client, found) };
      });
      if (route.kind === 'personal') throw new UnprocessableError('media_not_watchlistable', SENTENCES.personal);
      try {
        key = await this.calls.discoverKey(account, item, route);
      } catch (err) {
        throw await this.calls.memberFailure(actor.id, err);
      }
      if (!key) throw new UnprocessableError('media_not_watchlistable', SENTENCES.unknownToPlex);
    }
    try {
      if (input.remove) await this.d.discover.removeFromWatchlist(account, key);
      else await this.d.discover.addToWatchlist(account, key);
    } catch (err) {
      throw await this.calls.memberFailure(actor.id, err);
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
      await this.calls.assertVisible(actor, item);
      return item;
    } catch (err) {
      if (isFailure(err, 'unreachable', 'timeout')) return null;
      throw await this.calls.memberFailure(actor.id, err);
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
        if (!isFailure(err, 'unreachable', 'timeout')) throw await this.calls.memberFailure(actor.id, err);
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
        if (!isFailure(err, 'unreachable', 'timeout')) throw await this.calls.memberFailure(actor.id, err);
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
