// GUID resolution (spec rule 4, reference/plex.md §8): the media server names an item by its own
// metadata GUID; Hearth names a show by a show-database id and a movie by title plus year. Pure:
// no I/O. The service fetches what is missing (a plex:// item's Guid array with includeGuids or a
// detail call, an episode's show) and caches a resolution for RESOLUTION_TTL_MS.
//
// Forms read:
//   plex://movie|show|season|episode/<24 hex>            new agents; external ids are in Guid[]
//   imdb://tt…, tmdb://…, tvdb://…                       Guid[] entries
//   com.plexapp.agents.imdb://tt…?lang=en                legacy movie agent
//   com.plexapp.agents.thetvdb://<id>[/<s>/<e>]?lang=en  legacy TV agent (episode: show id, season, episode)
//   com.plexapp.agents.themoviedb://<id>[/<s>/<e>]       legacy TMDb agent (movies and TV)
//   hama://tvdb-<id>, hama://anidb-<id>                  a third-party anime agent
//   local://<id>                                         unmatched item in a matched library
//   com.plexapp.agents.none://<id>?lang=xn               personal media (home videos)
// The show id is the TVDB id when there is one, then TMDb, then IMDb; with none, title plus year.

export const RESOLUTION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type GuidSource = 'plex' | 'imdb' | 'tmdb' | 'tvdb' | 'anidb' | 'local' | 'none' | 'unknown';

export interface ParsedGuid {
  source: GuidSource;
  /** The id within its source (tt-number, number, 24-hex discover key…); null for an unreadable GUID. */
  id: string | null;
  /** plex:// only: what the GUID names. */
  plexType?: 'movie' | 'show' | 'season' | 'episode';
  /** Legacy TV agents: the season and episode after the show id. */
  season?: number;
  episode?: number;
  /** From a com.plexapp.agents.* or third-party agent. */
  legacy: boolean;
}

export interface ExternalIds {
  imdb: string | null;
  tmdb: string | null;
  tvdb: string | null;
}

const AGENT_SOURCE: Record<string, GuidSource> = {
  imdb: 'imdb',
  themoviedb: 'tmdb',
  tmdb: 'tmdb',
  thetvdb: 'tvdb',
  tvdb: 'tvdb',
  none: 'none',
};

const ID_SHAPE: Partial<Record<GuidSource, RegExp>> = { imdb: /^tt\d{5,10}$/, tmdb: /^\d{1,10}$/, tvdb: /^\d{1,10}$/, anidb: /^\d{1,10}$/ };
const PLEX_TYPES = new Set(['movie', 'show', 'season', 'episode']);

const unknown = (legacy = false): ParsedGuid => ({ source: 'unknown', id: null, legacy });

/** Reads one GUID in any of the forms above. */
export function parseGuid(raw: string | null | undefined): ParsedGuid {
  if (!raw) return unknown();
  const m = /^([a-z][a-z0-9.+-]*):\/\/([^?#]*)/i.exec(raw.trim());
  if (!m) return unknown();
  const scheme = m[1]!.toLowerCase();
  const rest = m[2]!;
  if (scheme === 'plex') {
    const p = /^(movie|show|season|episode)\/([0-9a-f]{24})$/i.exec(rest);
    return p && PLEX_TYPES.has(p[1]!.toLowerCase()) ? { source: 'plex', id: p[2]!.toLowerCase(), plexType: p[1]!.toLowerCase() as ParsedGuid['plexType'], legacy: false } : unknown();
  }
  if (scheme === 'local') return { source: 'local', id: rest || null, legacy: false };
  if (scheme === 'hama') {
    const h = /^(tvdb|anidb)\d?-(\d+)/i.exec(rest);
    return h ? { source: h[1]!.toLowerCase() as GuidSource, id: h[2]!, legacy: true } : unknown(true);
  }
  const legacy = scheme.startsWith('com.plexapp.agents.');
  const source = legacy ? AGENT_SOURCE[scheme.slice('com.plexapp.agents.'.length)] : (['imdb', 'tmdb', 'tvdb'] as const).find((s) => s === scheme);
  if (!source) return unknown(legacy);
  const [id = '', season, episode] = rest.split('/');
  if (source === 'none') return { source, id: id || null, legacy };
  if (!ID_SHAPE[source]?.test(id)) return unknown(legacy);
  const out: ParsedGuid = { source, id, legacy };
  if (season !== undefined && /^\d+$/.test(season)) out.season = Number(season);
  if (episode !== undefined && /^\d+$/.test(episode)) out.episode = Number(episode);
  return out;
}

/** The external ids of an item: its Guid array first, then what its own (legacy) GUID carries. */
export function externalIds(guid: string | null | undefined, guids: readonly string[] = []): ExternalIds {
  const ids: ExternalIds = { imdb: null, tmdb: null, tvdb: null };
  for (const raw of [...guids, guid]) {
    const p = parseGuid(raw);
    if ((p.source === 'imdb' || p.source === 'tmdb' || p.source === 'tvdb') && p.id && ids[p.source] === null) ids[p.source] = p.id;
  }
  return ids;
}

/** The discover provider's key for a plex:// GUID (its last segment); null for every other form. */
export function discoverKeyOf(guid: string | null | undefined): string | null {
  const p = parseGuid(guid);
  return p.source === 'plex' ? p.id : null;
}

/** Title plus year as Hearth keys a movie: lower case, accents and punctuation dropped, spaces collapsed. */
export function titleYearKey(title: string, year: number | null | undefined): string {
  const t = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return `${t}|${year ?? ''}`;
}

/** What resolution needs of an item (PlexItem has these fields). */
export interface ResolvableItem {
  type: string;
  title: string;
  year: number | null;
  guid: string | null;
  guids?: readonly string[];
  grandparentGuid?: string | null;
  grandparentTitle?: string | null;
  parentGuid?: string | null;
  parentIndex?: number | null;
  index?: number | null;
}

/** The item's show, when the caller fetched it (an episode's or season's Guid array lives there). */
export interface ResolvableShow {
  title: string;
  year: number | null;
  guid: string | null;
  guids?: readonly string[];
}

export type ShowId = { source: 'tvdb' | 'tmdb' | 'imdb'; id: string };

export type Resolution =
  | { kind: 'movie'; title: string; year: number | null; key: string; ids: ExternalIds; discoverKey: string | null }
  | {
      kind: 'show';
      title: string;
      year: number | null;
      /** The show-database id; null when only title and year are known (the fallback). */
      showId: ShowId | null;
      key: string;
      ids: ExternalIds;
      discoverKey: string | null;
      /** For a season or an episode. */
      season: number | null;
      episode: number | null;
    }
  /** Home videos and other personal media: nothing outside the server knows them. */
  | { kind: 'personal'; title: string; year: number | null; key: null; ids: ExternalIds; discoverKey: null };

function showIdOf(ids: ExternalIds): ShowId | null {
  if (ids.tvdb) return { source: 'tvdb', id: ids.tvdb };
  if (ids.tmdb) return { source: 'tmdb', id: ids.tmdb };
  if (ids.imdb) return { source: 'imdb', id: ids.imdb };
  return null;
}

/**
 * Rule 4. A movie keys on title plus year (`movie:<title>|<year>`); a show, season or episode on
 * its show's id (`show:tvdb:<id>`), falling back to the show's title plus year
 * (`show:title:<title>|<year>`) when no GUID carries one. Personal media resolves to nothing.
 * An episode's show GUIDs come from `show` when given, else from its grandparentGuid (a legacy
 * TV agent's episode GUID carries the show id itself).
 */
export function resolveMedia(item: ResolvableItem, show?: ResolvableShow | null): Resolution {
  const own = parseGuid(item.guid);
  if (own.source === 'none' || !['movie', 'show', 'season', 'episode'].includes(item.type)) {
    return { kind: 'personal', title: item.title, year: item.year, key: null, ids: externalIds(null), discoverKey: null };
  }
  if (item.type === 'movie') {
    return { kind: 'movie', title: item.title, year: item.year, key: `movie:${titleYearKey(item.title, item.year)}`, ids: externalIds(item.guid, item.guids), discoverKey: discoverKeyOf(item.guid) };
  }
  const isShow = item.type === 'show';
  const showGuid = isShow ? item.guid : (show?.guid ?? item.grandparentGuid ?? (item.type === 'season' ? item.parentGuid : null) ?? null);
  const showGuids = isShow ? (item.guids ?? []) : (show?.guids ?? []);
  let ids = externalIds(showGuid, showGuids);
  // a legacy episode GUID (com.plexapp.agents.thetvdb://<show>/<s>/<e>) names its show's id
  if (!isShow && !ids.tvdb && !ids.tmdb && !ids.imdb) ids = externalIds(item.guid);
  const title = isShow ? item.title : (show?.title ?? item.grandparentTitle ?? item.title);
  const year = isShow ? item.year : (show?.year ?? (item.type === 'season' ? null : item.year));
  const showId = showIdOf(ids);
  const season = item.type === 'episode' ? (item.parentIndex ?? own.season ?? null) : item.type === 'season' ? (item.index ?? own.season ?? null) : null;
  const episode = item.type === 'episode' ? (item.index ?? own.episode ?? null) : null;
  return {
    kind: 'show',
    title,
    year,
    showId,
    key: showId ? `show:${showId.source}:${showId.id}` : `show:title:${titleYearKey(title, year)}`,
    ids,
    discoverKey: discoverKeyOf(showGuid),
    season,
    episode,
  };
}
