// The films rules (issue 35). A search asks, in this order: Plex's catalogue with the member's own
// account when they linked it, TMDB when an admin added a TMDB token, else the household's Plex
// library (also what offline mode searches: it is on the home network). One film's details come
// from where its id says (tmdb-, plex-, lib-), with the household's Plex badge matched by its ids
// (tmdb, imdb). Each member's watchlist is private and local (it lists in offline mode too); an
// entry is copied to the member's own Plex watchlist when they linked it, and a copy that fails
// never loses Hearth's entry: the answer says so and the entry shows it. TMDB answers are cached
// (a search a day, a film a week, a poster a month) by the SourceFetcher, served stale when TMDB
// fails; posters are served by Hearth, never by the outside address. The TMDB token is kept in the
// app settings, sent only in TMDB's Authorization header, never answered or logged.
import type { UserActor } from '../../actor.js';
import { assertAdmin } from '../../actor.js';
import { AppError, ConflictError, NotFoundError, ServiceUnavailableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { SourceUnavailableError, type SourceFetcher, type SourceSpec } from '../../platform/outside-sources/fetcher.js';
import { type CachedImage, parseCachedImage } from '../../platform/outside-sources/image.js';
import type { MoviesPorts } from './ports.js';
import type { MovieResponse, MovieSummary, PlexCopy, SearchResponse, WatchlistAddResponse, WatchlistEntry } from './schema.js';
import type { MovieWatchlistRow, MoviesStore } from './store.js';
import { movieUrl, parseMovie, parseSearch, posterUrl, searchUrl, type TmdbMovie, type TmdbMovieDetail } from './tmdb.js';

const DAY_MS = 24 * 60 * 60_000;
export const SEARCH_TTL_MS = DAY_MS;
export const MOVIE_TTL_MS = 7 * DAY_MS;
export const IMAGE_TTL_MS = 30 * DAY_MS;
/** Searches and films no one keeps older than this are forgotten. */
export const PRUNE_AFTER_MS = 7 * DAY_MS;
const MAX_POSTER_BYTES = 1024 * 1024;
export const MOVIES_USER_AGENT = 'Hearth/0.1 (self-hosted household server; film search and watchlists; cached a day to a week)';
/** The app setting that holds the TMDB token (never answered or logged). */
export const TMDB_TOKEN_SETTING = 'movies.tmdbToken';

export interface MoviesDeps extends MoviesPorts {
  fetcher: SourceFetcher;
  store: MoviesStore;
  settings: { get<T>(key: string): Promise<T | undefined>; set(key: string, value: unknown): Promise<void>; delete(key: string): Promise<void> };
  clock: Clock;
  logger: Logger;
  tmdbUrl: string;
  tmdbImageUrl: string;
  /** Read at each request (offline mode is a live household setting). */
  offline(): boolean;
}

type Parsed = { kind: 'tmdb'; n: number } | { kind: 'plex'; key: string } | { kind: 'lib'; ratingKey: string };
function parseId(id: string): Parsed {
  if (id.startsWith('tmdb-')) return { kind: 'tmdb', n: Number(id.slice(5)) };
  if (id.startsWith('plex-')) return { kind: 'plex', key: id.slice(5) };
  return { kind: 'lib', ratingKey: id.slice(4) };
}

const imagePath = (id: string) => `/api/movies/${id}/image`;
const idsFromGuids = (guids: readonly string[]) => ({
  tmdb: guids.map((g) => /^tmdb:\/\/(\d+)$/.exec(g)?.[1]).find(Boolean) ?? null,
  imdb: guids.map((g) => /^imdb:\/\/(tt\d+)$/.exec(g)?.[1]).find(Boolean) ?? null,
});
const OFFLINE = 'Hearth is in offline mode, so films can only be found in the household’s Plex library.';
const TMDB_TOKEN_REFUSED = 'TMDB refused the household’s token. An admin can paste a new one on the Watch page.';

interface Detail {
  source: MovieResponse['source'];
  movie: MovieResponse['movie'];
  inPlex: { ratingKey: string } | null;
  discoverKey: string | null;
}

export class MoviesService {
  constructor(private readonly deps: MoviesDeps) {}

  // ---- TMDB ----------------------------------------------------------------------------------

  private async tmdbToken(): Promise<string | null> {
    const v = await this.deps.settings.get<{ token?: unknown }>(TMDB_TOKEN_SETTING);
    return v && typeof v.token === 'string' && v.token ? v.token : null;
  }

  private unavailable(what: string): string {
    return this.deps.offline()
      ? `Hearth is in offline mode, so ${what} cannot be fetched from TMDB, and there is no copy yet. ${this.deps.fetcher.offlineWho}`
      : `TMDB could not be reached for ${what}, and there is no copy yet. Try again in a little while.`;
  }

  /** A TMDB read: a refused token is said as such, anything else is the fetcher's 503 sentence. */
  private async tmdb<T>(spec: SourceSpec<T>, what: string, notFound?: string): Promise<T> {
    try {
      return (await this.deps.fetcher.read(spec, this.unavailable(what), { notFound })).payload;
    } catch (err) {
      if (err instanceof SourceUnavailableError && /answered 401/.test((await this.deps.fetcher.entry(spec.key))?.lastError ?? '')) throw new ServiceUnavailableError('tmdb_token_refused', TMDB_TOKEN_REFUSED);
      throw err;
    }
  }

  private async tmdbMovie(n: number): Promise<TmdbMovieDetail> {
    const token = await this.tmdbToken();
    const spec: SourceSpec<TmdbMovieDetail> = { key: `movie:${n}`, source: 'tmdb-movie', url: movieUrl(this.deps.tmdbUrl, n), ttlMs: MOVIE_TTL_MS, accept: 'application/json', headers: token ? { authorization: `Bearer ${token}` } : undefined, parse: parseMovie };
    if (!token) {
      // the token was taken away: what Hearth kept is still shown
      const kept = await this.deps.fetcher.peek<TmdbMovieDetail>(spec);
      if (kept) return kept.payload;
      throw new ConflictError('tmdb_not_configured', 'TMDB is not set up on this Hearth, so this film’s details cannot be fetched. An admin can add a TMDB token on the Watch page.');
    }
    return this.tmdb(spec, 'this film', 'TMDB has no film with that number.');
  }

  private static fromTmdb(m: TmdbMovie): MovieSummary {
    const id = `tmdb-${m.id}`;
    return { id, title: m.title, year: m.year, overview: m.overview, posterUrl: m.posterPath ? imagePath(id) : null };
  }

  // ---- search and one film -------------------------------------------------------------------

  async search(actor: UserActor, q: string): Promise<SearchResponse> {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean).join(' ');
    if (!this.deps.offline()) {
      const plex = await this.deps.catalogue.searchCatalogue(actor, words, 'movie');
      if (plex) return { source: 'plex', results: plex.map((d) => ({ id: `plex-${d.key}`, title: d.title, year: d.year, overview: d.summary ?? '', posterUrl: d.thumb ? imagePath(`plex-${d.key}`) : null })) };
      const token = await this.tmdbToken();
      if (token) {
        const spec: SourceSpec<TmdbMovie[]> = { key: `search:${words}`, source: 'tmdb-search', url: searchUrl(this.deps.tmdbUrl, words), ttlMs: SEARCH_TTL_MS, accept: 'application/json', headers: { authorization: `Bearer ${token}` }, parse: parseSearch };
        return { source: 'tmdb', results: (await this.tmdb(spec, 'this search')).map((m) => MoviesService.fromTmdb(m)) };
      }
    }
    const library = await this.deps.catalogue.searchLibrary(actor, words);
    if (!library) {
      if (this.deps.offline()) throw new ServiceUnavailableError('source_unavailable', `${OFFLINE} The household’s Plex is not connected, so there is nothing to search. ${this.deps.fetcher.offlineWho}`);
      throw new ConflictError('movies_no_source', 'There is nothing to search films in yet: link your own Plex account on the Media page, or an admin can connect the household’s Plex or add a TMDB token.');
    }
    return { source: 'library', results: library.map(({ item }) => ({ id: `lib-${item.ratingKey}`, title: item.title, year: item.year, overview: item.summary ?? '', posterUrl: item.thumbUrl })) };
  }

  private async detail(actor: UserActor, id: string): Promise<Detail> {
    const p = parseId(id);
    if (p.kind === 'lib') {
      const { item, ids } = await this.deps.catalogue.libraryTitle(actor, p.ratingKey);
      return {
        source: 'library',
        movie: { id, title: item.title, year: item.year, overview: item.summary ?? '', posterUrl: item.thumbUrl, runtimeMinutes: item.durationMs ? Math.round(item.durationMs / 60_000) : null, genres: [], ids },
        inPlex: { ratingKey: item.ratingKey },
        discoverKey: null,
      };
    }
    if (p.kind === 'plex') {
      if (this.deps.offline()) throw new ServiceUnavailableError('source_unavailable', `${OFFLINE} This film’s details are in Plex’s online catalogue. ${this.deps.fetcher.offlineWho}`);
      const d = await this.deps.catalogue.catalogueTitle(actor, p.key);
      if (d.type !== 'movie') throw new NotFoundError('That is not a film in Plex’s catalogue.');
      const ids = idsFromGuids(d.guids);
      return {
        source: 'plex',
        movie: { id, title: d.title, year: d.year, overview: d.summary ?? '', posterUrl: d.thumb ? imagePath(id) : null, runtimeMinutes: null, genres: [], ids },
        inPlex: await this.deps.catalogue.findMovie(actor, ids),
        discoverKey: p.key,
      };
    }
    const m = await this.tmdbMovie(p.n);
    const ids = { tmdb: String(m.id), imdb: m.imdb };
    return {
      source: 'tmdb',
      movie: { ...MoviesService.fromTmdb(m), runtimeMinutes: m.runtimeMinutes, genres: m.genres, ids },
      inPlex: await this.deps.catalogue.findMovie(actor, ids),
      discoverKey: null,
    };
  }

  async movie(actor: UserActor, id: string): Promise<MovieResponse> {
    const [d, row] = await Promise.all([this.detail(actor, id), this.deps.store.get(actor.id, id)]);
    return { source: d.source, movie: d.movie, inPlex: d.inPlex, onWatchlist: row !== null };
  }

  /** A film's poster, fetched once by Hearth (the browser never asks TMDB's or Plex's image host). */
  async image(actor: UserActor, id: string): Promise<{ type: string; body: Buffer }> {
    const p = parseId(id);
    if (p.kind === 'lib') throw new NotFoundError('The household’s Plex pictures are shown from the Media pages.');
    const key = `image:${id}`;
    const kept = await this.deps.fetcher.peek<CachedImage>({ key, url: '' });
    let url: string | null;
    if (kept && !kept.freshness.stale) url = null;
    else if (p.kind === 'tmdb') {
      const m = await this.tmdbMovie(p.n);
      url = m.posterPath ? posterUrl(this.deps.tmdbImageUrl, m.posterPath) : null;
    } else url = (await this.deps.catalogue.catalogueTitle(actor, p.key)).thumb;
    let image: CachedImage;
    if (url === null && kept) image = kept.payload;
    else if (url === null || !/^https?:\/\//.test(url)) throw new NotFoundError('There is no picture of this film.');
    else {
      const spec: SourceSpec<CachedImage> = { key, source: 'movie-image', url, ttlMs: IMAGE_TTL_MS, accept: 'image/jpeg,image/png,image/webp', parse: (b) => parseCachedImage(b, MAX_POSTER_BYTES, 'a poster') };
      image = (await this.deps.fetcher.read(spec, p.kind === 'tmdb' ? this.unavailable('the poster') : 'Plex’s picture of this film could not be fetched just now.')).payload;
    }
    return { type: image.type, body: Buffer.from(image.data, 'base64') };
  }

  // ---- the member's watchlist ----------------------------------------------------------------

  private static entry(r: MovieWatchlistRow): WatchlistEntry {
    return { id: r.movieId, title: r.title, year: r.year, posterUrl: r.posterUrl, addedAt: r.addedAt, plex: r.plexState };
  }

  /** The member's own films, newest first: local, so it lists in offline mode and with every source down. */
  async watchlist(actor: UserActor): Promise<{ movies: WatchlistEntry[] }> {
    return { movies: (await this.deps.store.watchlist(actor.id)).map((r) => MoviesService.entry(r)) };
  }

  async addToWatchlist(actor: UserActor, id: string): Promise<WatchlistAddResponse> {
    if (await this.deps.store.get(actor.id, id)) throw new ConflictError('already_on_watchlist', 'That film is already on your watchlist.');
    const d = await this.detail(actor, id);
    const row: MovieWatchlistRow = {
      movieId: id,
      title: d.movie.title,
      year: d.movie.year,
      tmdbId: d.movie.ids.tmdb ? Number(d.movie.ids.tmdb) : null,
      imdbId: d.movie.ids.imdb,
      discoverKey: d.discoverKey,
      posterUrl: d.movie.posterUrl,
      plexState: 'off',
      addedAt: this.deps.clock.now().toISOString(),
    };
    if (!(await this.deps.store.add(actor.id, row))) throw new ConflictError('already_on_watchlist', `${row.title} is already on your watchlist.`);
    // Hearth's entry is written; the copy on the member's Plex watchlist may fail without losing it
    return this.copyToPlex(actor, row);
  }

  /** Tries again to put a film of the member's watchlist on their own Plex watchlist (after a copy failed). */
  async copyAgain(actor: UserActor, id: string): Promise<WatchlistAddResponse> {
    const row = await this.deps.store.get(actor.id, id);
    if (!row) throw new NotFoundError('That film is not on your watchlist.');
    if (row.plexState === 'mirrored') return { movie: MoviesService.entry(row), plexMessage: null };
    return this.copyToPlex(actor, row);
  }

  /** The copy on the member's Plex watchlist, recorded with the entry; a failure is said, never thrown. */
  private async copyToPlex(actor: UserActor, row: MovieWatchlistRow): Promise<WatchlistAddResponse> {
    const copy = await this.plexCopy(actor, row);
    const discoverKey = copy.discoverKey ?? row.discoverKey;
    await this.deps.store.setPlexCopy(actor.id, row.movieId, copy.state, discoverKey);
    return { movie: MoviesService.entry({ ...row, plexState: copy.state, discoverKey }), plexMessage: copy.message };
  }

  private async plexCopy(actor: UserActor, row: MovieWatchlistRow): Promise<{ state: PlexCopy; discoverKey: string | null; message: string | null }> {
    if (!(await this.deps.catalogue.linked(actor))) return { state: 'off', discoverKey: null, message: null };
    const kept = 'It is on your watchlist here.';
    if (this.deps.offline()) return { state: 'failed', discoverKey: null, message: `Hearth is in offline mode, so it was not put on your Plex watchlist. ${kept}` };
    try {
      const ids = { tmdb: row.tmdbId === null ? null : String(row.tmdbId), imdb: row.imdbId };
      const key = row.discoverKey ?? (await this.deps.catalogue.discoverKeyFor(actor, { type: 'movie', ids, title: row.title, year: row.year }));
      if (!key) return { state: 'failed', discoverKey: null, message: `Plex does not know this film, so it was not put on your Plex watchlist. ${kept}` };
      await this.deps.plexWatchlist(actor, key, false);
      return { state: 'mirrored', discoverKey: key, message: null };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.deps.logger.warn({ code: err.code }, 'Films: a watchlist entry could not be copied to the member’s Plex watchlist');
      return { state: 'failed', discoverKey: null, message: `It was not put on your Plex watchlist: ${err.message} ${kept}` };
    }
  }

  async removeFromWatchlist(actor: UserActor, id: string): Promise<void> {
    const row = await this.deps.store.remove(actor.id, id);
    if (!row) throw new NotFoundError('That film is not on your watchlist.');
    if (row.plexState !== 'mirrored' || !row.discoverKey || this.deps.offline()) return;
    try {
      await this.deps.plexWatchlist(actor, row.discoverKey, true);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.deps.logger.warn({ code: err.code }, 'Films: a film removed from the watchlist could not be taken off the member’s Plex watchlist');
    }
  }

  // ---- the admin's TMDB token ----------------------------------------------------------------

  async tmdbStatus(actor: UserActor): Promise<{ configured: boolean }> {
    assertAdmin(actor);
    return { configured: (await this.tmdbToken()) !== null };
  }

  async setTmdbToken(actor: UserActor, token: string): Promise<{ configured: boolean }> {
    assertAdmin(actor);
    await this.deps.settings.set(TMDB_TOKEN_SETTING, { token, setAt: this.deps.clock.now().toISOString() });
    // a new token: what failed is asked afresh (no backoff or refusal kept from the old one); good copies stay
    for (const source of ['tmdb-search', 'tmdb-movie']) for (const e of await this.deps.fetcher.entriesOf(source)) if (e.failCount > 0) await this.deps.fetcher.forget(e.key);
    return { configured: true };
  }

  async clearTmdbToken(actor: UserActor): Promise<void> {
    assertAdmin(actor);
    await this.deps.settings.delete(TMDB_TOKEN_SETTING);
  }

  /** Forgets old searches, and films and posters no one keeps on a watchlist. */
  async prune(): Promise<void> {
    const before = new Date(this.deps.clock.now().getTime() - PRUNE_AFTER_MS).toISOString();
    const kept = await this.deps.store.keptTmdbIds();
    await this.deps.fetcher.forgetBefore('tmdb-search', before);
    await this.deps.fetcher.forgetBefore('tmdb-movie', before, kept.map((n) => `movie:${n}`));
    await this.deps.fetcher.forgetBefore('movie-image', before, kept.map((n) => `image:tmdb-${n}`));
  }
}
