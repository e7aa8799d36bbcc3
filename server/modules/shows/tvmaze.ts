// TVmaze's answers (reference/media-hubs.md §3.1) read into what Hearth keeps: the search's
// `[{score, show}]` and a show with its `_embedded` episodes, seasons and next episode. Anything
// that is not TVmaze's JSON throws (the fetch counts as failed and the last good copy is kept).
import { intField as int, isRawObject as isRaw, jsonOf as json, textField as str } from '../../platform/outside-sources/json-fields.js';
import { plainText } from '../today/public.js';

export interface TvEpisode {
  id: number;
  season: number;
  number: number | null;
  name: string;
  /** ISO instant (TVmaze's airstamp); null when not yet known. */
  airstamp: string | null;
  runtime: number | null;
  summary: string;
}

export interface TvSeason {
  number: number;
  episodeCount: number | null;
  premiereDate: string | null;
  endDate: string | null;
}

export interface TvShow {
  id: number;
  name: string;
  status: string | null;
  premiered: string | null;
  ended: string | null;
  network: string | null;
  genres: string[];
  /** The poster's outside address (never answered to a browser). */
  image: string | null;
  summary: string;
  officialSite: string | null;
  runtime: number | null;
  schedule: { time: string; days: string[] };
  externals: { tvdb: number | null; imdb: string | null };
}

export interface TvShowDetail extends TvShow {
  episodes: TvEpisode[];
  seasons: TvSeason[];
  nextEpisodeId: number | null;
}

const MAX_SUMMARY = 1200;


function showOf(raw: unknown): TvShow {
  if (!isRaw(raw)) throw new Error('not a TVmaze show');
  const id = int(raw.id);
  const name = str(raw.name);
  if (id === null || name === null) throw new Error('a TVmaze show without an id or a name');
  const network = isRaw(raw.network) ? str(raw.network.name) : isRaw(raw.webChannel) ? str(raw.webChannel.name) : null;
  const image = isRaw(raw.image) ? (str(raw.image.medium) ?? str(raw.image.original)) : null;
  const schedule = isRaw(raw.schedule) ? raw.schedule : {};
  const externals = isRaw(raw.externals) ? raw.externals : {};
  const imdb = str(externals.imdb);
  return {
    id,
    name,
    status: str(raw.status),
    premiered: str(raw.premiered),
    ended: str(raw.ended),
    network,
    genres: Array.isArray(raw.genres) ? raw.genres.filter((g): g is string => typeof g === 'string').slice(0, 10) : [],
    image: image && /^https?:\/\//.test(image) ? image : null,
    summary: plainText(str(raw.summary) ?? '', MAX_SUMMARY),
    officialSite: str(raw.officialSite),
    runtime: int(raw.runtime) ?? int(raw.averageRuntime),
    schedule: { time: str(schedule.time) ?? '', days: Array.isArray(schedule.days) ? schedule.days.filter((d): d is string => typeof d === 'string') : [] },
    externals: { tvdb: int(externals.thetvdb), imdb: imdb && /^tt\d{5,10}$/.test(imdb) ? imdb : null },
  };
}

function episodeOf(raw: unknown): TvEpisode | null {
  if (!isRaw(raw)) return null;
  const id = int(raw.id);
  const season = int(raw.season);
  if (id === null || season === null) return null;
  const stamp = str(raw.airstamp);
  return {
    id,
    season,
    number: int(raw.number),
    name: str(raw.name) ?? `Episode ${int(raw.number) ?? ''}`.trim(),
    airstamp: stamp && Number.isFinite(Date.parse(stamp)) ? new Date(Date.parse(stamp)).toISOString() : null,
    runtime: int(raw.runtime),
    summary: plainText(str(raw.summary) ?? '', MAX_SUMMARY),
  };
}

/** `/search/shows?q=` → the shows, best first. */
export function parseSearch(body: Buffer): TvShow[] {
  const raw = json(body);
  if (!Array.isArray(raw)) throw new Error('not a TVmaze search answer');
  return raw.flatMap((hit) => (isRaw(hit) && isRaw(hit.show) ? [showOf(hit.show)] : [])).slice(0, 25);
}

/** `/shows/:id?embed[]=episodes&embed[]=seasons&embed[]=nextepisode` → the show with its guide. */
export function parseShowDetail(body: Buffer): TvShowDetail {
  const raw = json(body);
  const show = showOf(raw);
  const embedded = isRaw(raw) && isRaw(raw._embedded) ? raw._embedded : {};
  const episodes = (Array.isArray(embedded.episodes) ? embedded.episodes : []).flatMap((e) => episodeOf(e) ?? []);
  const seasons = (Array.isArray(embedded.seasons) ? embedded.seasons : []).flatMap((s): TvSeason[] => {
    if (!isRaw(s) || int(s.number) === null) return [];
    return [{ number: int(s.number)!, episodeCount: int(s.episodeOrder), premiereDate: str(s.premiereDate), endDate: str(s.endDate) }];
  });
  const next = episodeOf(embedded.nextepisode);
  if (next && !episodes.some((e) => e.id === next.id)) episodes.push(next);
  return { ...show, episodes, seasons, nextEpisodeId: next?.id ?? null };
}

export const searchUrl = (base: string, q: string) => `${base.replace(/\/$/, '')}/search/shows?q=${encodeURIComponent(q)}`;
export const showUrl = (base: string, id: number) => `${base.replace(/\/$/, '')}/shows/${id}?embed[]=episodes&embed[]=seasons&embed[]=nextepisode`;
