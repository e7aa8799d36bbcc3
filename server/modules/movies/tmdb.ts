// TMDB's answers (reference/media-hubs.md §3.2) read into what Hearth keeps: a film search's
// `{page, results[]}` and one film with its `external_ids`. Anything that is not TMDB's JSON throws
// (the fetch counts as failed and the last good copy is kept). The token travels in the
// Authorization header (never in a URL, so never in a cache row or a log line).

import { intField as int, isRawObject as isRaw, jsonOf as json, textField as str } from '../../platform/outside-sources/json-fields.js';

export interface TmdbMovie {
  id: number;
  title: string;
  year: number | null;
  overview: string;
  /** TMDB's poster path (`/abc.jpg`), joined to the image host by the service; never sent to a browser. */
  posterPath: string | null;
}

export interface TmdbMovieDetail extends TmdbMovie {
  runtimeMinutes: number | null;
  genres: string[];
  imdb: string | null;
}

const MAX_OVERVIEW = 1200;
const MAX_RESULTS = 25;


function movieOf(raw: unknown): TmdbMovie | null {
  if (!isRaw(raw)) return null;
  const id = int(raw.id);
  const title = str(raw.title) ?? str(raw.original_title);
  if (id === null || id < 1 || title === null) return null;
  const date = str(raw.release_date);
  const poster = str(raw.poster_path);
  return {
    id,
    title,
    year: date && /^\d{4}/.test(date) ? Number(date.slice(0, 4)) : null,
    overview: (str(raw.overview) ?? '').slice(0, MAX_OVERVIEW),
    posterPath: poster && /^\/[A-Za-z0-9_-]+\.(jpg|jpeg|png|webp)$/.test(poster) ? poster : null,
  };
}

/** `/3/search/movie?query=` → the films, best first (adult titles are never asked for). */
export function parseSearch(body: Buffer): TmdbMovie[] {
  const raw = json(body);
  if (!isRaw(raw) || !Array.isArray(raw.results)) throw new Error('not a TMDB search answer');
  return raw.results.flatMap((r) => (isRaw(r) && r.adult !== true ? (movieOf(r) ?? []) : [])).slice(0, MAX_RESULTS);
}

/** `/3/movie/{id}?append_to_response=external_ids` → the film with its IMDb id. */
export function parseMovie(body: Buffer): TmdbMovieDetail {
  const raw = json(body);
  const movie = movieOf(raw);
  if (!movie || !isRaw(raw)) throw new Error('not a TMDB film');
  const external = isRaw(raw.external_ids) ? raw.external_ids : {};
  const imdb = str(external.imdb_id) ?? str(raw.imdb_id);
  return {
    ...movie,
    runtimeMinutes: int(raw.runtime) || null,
    genres: Array.isArray(raw.genres) ? raw.genres.flatMap((g) => (isRaw(g) && str(g.name) ? [str(g.name)!] : [])).slice(0, 10) : [],
    imdb: imdb && /^tt\d{5,10}$/.test(imdb) ? imdb : null,
  };
}

const trim = (base: string) => base.replace(/\/$/, '');
export const searchUrl = (base: string, q: string) => `${trim(base)}/3/search/movie?${new URLSearchParams({ query: q, include_adult: 'false', page: '1' }).toString()}`;
export const movieUrl = (base: string, id: number) => `${trim(base)}/3/movie/${id}?append_to_response=external_ids`;
export const posterUrl = (imageBase: string, path: string) => `${trim(imageBase)}/w342${path}`;
