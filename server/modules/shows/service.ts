// The shows rules (issue 35): TVmaze search and show guides (cached by the SourceFetcher: a show's
// guide a day, a search a day, a poster a month; served stale when TVmaze is down or asks to wait),
// each member's private watchlist and ticked episodes, the schedule of what airs next, and the
// household's Plex badge. Nothing here is shared between members.
import type { UserActor } from '../../actor.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { type Clock, withLocalOffset } from '../../platform/clock.js';
import { type Freshness as SourceFreshness, type SourceFetcher, type SourceSpec } from '../../platform/outside-sources/fetcher.js';
import { type CachedImage, parseCachedImage } from '../../platform/outside-sources/image.js';
import type { ShowsPorts } from './ports.js';
import type { Episode, ScheduleResponse, ShowResponse, ShowSummary, WatchlistEntry } from './schema.js';
import type { ShowsStore } from './store.js';
import { parseSearch, parseShowDetail, searchUrl, showUrl, type TvEpisode, type TvShow, type TvShowDetail } from './tvmaze.js';

const DAY_MS = 24 * 60 * 60_000;
export const SHOW_TTL_MS = DAY_MS;
export const SEARCH_TTL_MS = DAY_MS;
export const IMAGE_TTL_MS = 30 * DAY_MS;
/** Searches older than this are forgotten (a show on someone's watchlist is always kept). */
export const PRUNE_AFTER_MS = 7 * DAY_MS;
/** The schedule looks this far ahead. */
export const SCHEDULE_DAYS = 60;
const MAX_POSTER_BYTES = 1024 * 1024;
export const SHOWS_USER_AGENT = 'Hearth/0.1 (self-hosted household server; TV guide of the members watchlists; cached a day)';

export interface ShowsDeps extends ShowsPorts {
  fetcher: SourceFetcher;
  store: ShowsStore;
  clock: Clock;
  tvmazeUrl: string;
}

const imagePath = (id: number) => `/api/shows/${id}/image`;
/** When an episode airs, in the household's time zone (its locale); null when TVmaze does not know yet. */
const airsAt = (e: TvEpisode, timeZone: string): string | null => (e.airstamp ? withLocalOffset(new Date(e.airstamp), timeZone) : null);

export class ShowsService {
  constructor(private readonly deps: ShowsDeps) {}

  private unavailable(what: string): string {
    return this.deps.fetcher.offline
      ? `Hearth is in offline mode, so ${what} cannot be fetched from the TV guide (TVmaze), and there is no copy yet. ${this.deps.fetcher.offlineWho}`
      : `The TV guide (TVmaze) could not be reached for ${what}, and there is no copy yet. Try again in a little while.`;
  }

  private showSpec(id: number): SourceSpec<TvShowDetail> {
    return { key: `show:${id}`, source: 'tvmaze-show', url: showUrl(this.deps.tvmazeUrl, id), ttlMs: SHOW_TTL_MS, accept: 'application/json', parse: parseShowDetail };
  }

  private detail(id: number): Promise<{ payload: TvShowDetail; freshness: SourceFreshness }> {
    return this.deps.fetcher.read(this.showSpec(id), this.unavailable('this show'), { notFound: 'The TV guide has no show with that number.' });
  }

  private summary(s: TvShow): ShowSummary {
    return { tvmazeId: s.id, name: s.name, status: s.status, premiered: s.premiered, ended: s.ended, network: s.network, genres: s.genres, imageUrl: s.image ? imagePath(s.id) : null, summary: s.summary };
  }

  private episode(e: TvEpisode, watched: Set<number>, timeZone: string): Episode {
    return { id: e.id, season: e.season, number: e.number, name: e.name, airsAt: airsAt(e, timeZone), runtime: e.runtime, summary: e.summary, watched: watched.has(e.id) };
  }

  async search(_actor: UserActor, q: string): Promise<{ results: ShowSummary[] }> {
    // TVmaze's search ignores case and spacing: one cached answer for each way of typing it
    const words = q.toLowerCase().split(/\s+/).filter(Boolean).join(' ');
    const spec: SourceSpec<TvShow[]> = { key: `search:${words}`, source: 'tvmaze-search', url: searchUrl(this.deps.tvmazeUrl, words), ttlMs: SEARCH_TTL_MS, accept: 'application/json', parse: parseSearch };
    const { payload } = await this.deps.fetcher.read(spec, this.unavailable('this search'));
    return { results: payload.map((s) => this.summary(s)) };
  }

  async show(actor: UserActor, id: number): Promise<ShowResponse> {
    const { payload: s, freshness } = await this.detail(id);
    const [onWatchlist, inPlex, timeZone] = await Promise.all([
      this.deps.store.onWatchlist(actor.id, id),
      // the badge is a nicety: Plex down or not linked is no badge, never a failed page
      this.deps.inPlex(actor, s.externals).catch(() => null),
      this.deps.timeZone(),
    ]);
    if (inPlex) await this.fillFromPlex(actor, s, inPlex.ratingKey);
    const watched = await this.deps.store.watchedEpisodes(actor.id, id);
    const perSeason = new Map<number, number>();
    for (const e of s.episodes) if (e.number !== null) perSeason.set(e.season, (perSeason.get(e.season) ?? 0) + 1);
    const next = s.nextEpisodeId === null ? null : s.episodes.find((e) => e.id === s.nextEpisodeId);
    return {
      show: { ...this.summary(s), officialSite: s.officialSite, runtime: s.runtime, schedule: s.schedule, externals: s.externals },
      seasons: s.seasons.map((x) => ({ number: x.number, episodeCount: x.episodeCount ?? perSeason.get(x.number) ?? 0, premiereDate: x.premiereDate, endDate: x.endDate })),
      episodes: s.episodes.map((e) => this.episode(e, watched, timeZone)),
      nextEpisode: next ? this.episode(next, watched, timeZone) : null,
      inPlex,
      onWatchlist,
      freshness: { fetchedAt: freshness.fetchedAt, ageSeconds: freshness.ageSeconds, stale: freshness.stale },
    };
  }

  /**
   * The ticks the member has not set themselves come from their own viewed state on the household's
   * Plex (the show matched by its ids, each episode by season and number). Plex not answering
   * leaves the ticks as they were.
   */
  private async fillFromPlex(actor: UserActor, s: TvShowDetail, ratingKey: string): Promise<void> {
    const views = await this.deps.episodeViews(actor, ratingKey).catch(() => null);
    if (!views) return;
    const byNumber = new Map(views.map((v) => [`${v.season}.${v.episode}`, v.watched]));
    const matched = s.episodes.flatMap((e) => {
      const w = e.number === null ? undefined : byNumber.get(`${e.season}.${e.number}`);
      return w === undefined ? [] : [{ episodeId: e.id, watched: w }];
    });
    await this.deps.store.fillFromPlex(actor.id, s.id, matched, this.deps.clock.now().toISOString());
  }

  /** A show's poster, fetched once by Hearth (the browser never asks TVmaze's image host). */
  async image(_actor: UserActor, id: number): Promise<{ type: string; body: Buffer }> {
    const { payload: s } = await this.detail(id);
    if (!s.image) throw new NotFoundError('The TV guide has no picture of this show.');
    const spec: SourceSpec<CachedImage> = { key: `image:${id}`, source: 'tvmaze-image', url: s.image, ttlMs: IMAGE_TTL_MS, accept: 'image/jpeg,image/png,image/webp', parse: (b) => parseCachedImage(b, MAX_POSTER_BYTES, 'a poster') };
    const { payload } = await this.deps.fetcher.read(spec, this.unavailable('the show’s picture'));
    return { type: payload.type, body: Buffer.from(payload.data, 'base64') };
  }

  private async entry(actor: UserActor, row: { tvmazeId: number; name: string; addedAt: string }): Promise<WatchlistEntry> {
    const [found, watched, timeZone] = await Promise.all([this.detail(row.tvmazeId).catch(() => null), this.deps.store.watchedEpisodes(actor.id, row.tvmazeId), this.deps.timeZone()]);
    const s = found?.payload;
    const next = s && s.nextEpisodeId !== null ? s.episodes.find((e) => e.id === s.nextEpisodeId) : undefined;
    return {
      tvmazeId: row.tvmazeId,
      name: s?.name ?? row.name,
      imageUrl: s?.image ? imagePath(row.tvmazeId) : null,
      addedAt: row.addedAt,
      status: s?.status ?? null,
      nextEpisode: next ? { season: next.season, number: next.number, name: next.name, airsAt: airsAt(next, timeZone) } : null,
      watchedCount: watched.size,
      episodeCount: s ? s.episodes.filter((e) => e.number !== null).length : null,
    };
  }

  async watchlist(actor: UserActor): Promise<{ shows: WatchlistEntry[] }> {
    const rows = await this.deps.store.watchlist(actor.id);
    return { shows: await Promise.all(rows.map((r) => this.entry(actor, r))) };
  }

  async addToWatchlist(actor: UserActor, tvmazeId: number): Promise<WatchlistEntry> {
    const { payload: s } = await this.detail(tvmazeId);
    const row = { tvmazeId, name: s.name, addedAt: this.deps.clock.now().toISOString() };
    if (!(await this.deps.store.add(actor.id, row))) throw new ConflictError('already_on_watchlist', `${s.name} is already on your watchlist.`);
    return this.entry(actor, row);
  }

  async removeFromWatchlist(actor: UserActor, tvmazeId: number): Promise<void> {
    if (!(await this.deps.store.remove(actor.id, tvmazeId))) throw new NotFoundError('That show is not on your watchlist.');
  }

  async setWatched(actor: UserActor, tvmazeId: number, episodeId: number, watched: boolean): Promise<{ episodeId: number; watched: boolean }> {
    const { payload: s } = await this.detail(tvmazeId);
    if (!s.episodes.some((e) => e.id === episodeId)) throw new NotFoundError(`That episode is not one of ${s.name}’s.`);
    await this.deps.store.setWatched(actor.id, tvmazeId, episodeId, watched, this.deps.clock.now().toISOString());
    return { episodeId, watched };
  }

  /** What airs next from the member's watchlist, soonest first, for the next SCHEDULE_DAYS days. */
  async schedule(actor: UserActor): Promise<ScheduleResponse> {
    const now = this.deps.clock.now().getTime();
    const until = now + SCHEDULE_DAYS * DAY_MS;
    const rows = await this.deps.store.watchlist(actor.id);
    const timeZone = await this.deps.timeZone();
    const guides = await Promise.all(rows.map(async (r) => ({ row: r, guide: await this.detail(r.tvmazeId).catch(() => null) })));
    const episodes = guides.flatMap(({ guide }) => {
      if (!guide) return [];
      const s = guide.payload;
      return s.episodes.flatMap((e) => {
        const t = e.airstamp ? Date.parse(e.airstamp) : NaN;
        if (!(t >= now && t <= until)) return [];
        return [{ tvmazeId: s.id, showName: s.name, episodeId: e.id, season: e.season, number: e.number, name: e.name, airsAt: airsAt(e, timeZone)!, at: t }];
      });
    });
    episodes.sort((a, b) => a.at - b.at || a.showName.localeCompare(b.showName));
    return {
      episodes: episodes.map(({ at: _at, ...e }) => e),
      unavailable: guides.filter((g) => !g.guide).map((g) => ({ tvmazeId: g.row.tvmazeId, name: g.row.name })),
    };
  }

  /** Forgets old searches, and guides and posters of shows no one keeps on a watchlist. */
  async prune(): Promise<void> {
    const before = new Date(this.deps.clock.now().getTime() - PRUNE_AFTER_MS).toISOString();
    const kept = await this.deps.store.watchedShows();
    await this.deps.fetcher.forgetBefore('tvmaze-search', before);
    await this.deps.fetcher.forgetBefore('tvmaze-show', before, kept.map((id) => `show:${id}`));
    await this.deps.fetcher.forgetBefore('tvmaze-image', before, kept.map((id) => `image:${id}`));
  }
}
