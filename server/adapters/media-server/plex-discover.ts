// The discover provider client (MEDIA_DISCOVER_URL, discover.provider.plex.tv since the Aug 2025
// move; reference/plex.md §7): a member's watchlist and Plex's own catalogue, with their own token.
import { z } from 'zod';
import type { PlexPage } from './plex-items.js';
import { callJson, EMPTY, fail, GuidList, MediaServerError, optNum, optStr, str, trimBase, type CommonOptions } from './plex-call.js';

const DiscoverItemSchema = z.object({ ratingKey: str, guid: optStr, type: str, title: z.string().catch(''), year: optNum, thumb: optStr, summary: optStr, watchlistedAt: optNum, Guid: GuidList });
export interface DiscoverItem {
  /** The discover key: the last segment of the item's plex:// GUID. */
  key: string;
  guid: string | null;
  type: string;
  title: string;
  year: number | null;
  /** A public image on metadata-static.plex.tv (needs no token). */
  thumb: string | null;
  summary: string | null;
  watchlistedAt: number | null;
  guids: string[];
}
const toDiscover = (m: z.infer<typeof DiscoverItemSchema>): DiscoverItem => ({ key: m.ratingKey, guid: m.guid, type: m.type, title: m.title, year: m.year, thumb: m.thumb, summary: m.summary, watchlistedAt: m.watchlistedAt, guids: m.Guid });
// the discover search: SearchResults[] by provider; Plex's catalogue is the one with id "external"
const SearchContainer = z.object({
  MediaContainer: z.object({
    SearchResults: z
      .array(z.object({ id: z.string().catch(''), SearchResult: z.array(z.object({ Metadata: DiscoverItemSchema.nullish().catch(null) })).nullish().transform((v) => v ?? []) }))
      .nullish()
      .transform((v) => v ?? []),
  }),
});
const DiscoverContainer = z.object({ MediaContainer: z.object({ totalSize: optNum, offset: optNum, Metadata: z.array(DiscoverItemSchema).nullish().transform((v) => v ?? []) }) });

export interface PlexDiscoverClient {
  readonly baseUrl: string;
  watchlist(token: string, opts?: { start?: number; size?: number; type?: 'movie' | 'show'; signal?: AbortSignal }): Promise<PlexPage<DiscoverItem>>;
  /** PUT /actions/addToWatchlist with the person's own account token (rule 2). */
  addToWatchlist(token: string, discoverKey: string, opts?: { signal?: AbortSignal }): Promise<void>;
  removeFromWatchlist(token: string, discoverKey: string, opts?: { signal?: AbortSignal }): Promise<void>;
  /** One catalogue entry with its external ids; null when discover does not know the key. */
  metadata(token: string, discoverKey: string, opts?: { signal?: AbortSignal }): Promise<DiscoverItem | null>;
  /** Catalogue entries by external id (imdb://, tmdb://, tvdb://) or by title and year. */
  matches(token: string, q: { type: 'movie' | 'show'; guid: string } | { type: 'movie' | 'show'; title: string; year?: number | null }, opts?: { signal?: AbortSignal }): Promise<DiscoverItem[]>;
  /** Plex's catalogue searched by words (GET /library/search?searchProviders=discover), best first. */
  search(token: string, query: string, opts: { type: 'movie' | 'show'; limit?: number; signal?: AbortSignal }): Promise<DiscoverItem[]>;
}

const DISCOVER_KEY = /^[0-9a-f]{24}$/i;
const TYPE_NO = { movie: 1, show: 2 } as const;

export function createPlexDiscoverClient(o: CommonOptions): PlexDiscoverClient {
  const action = async (token: string, name: 'addToWatchlist' | 'removeFromWatchlist', key: string, signal?: AbortSignal) => {
    if (!DISCOVER_KEY.test(key)) throw fail('discover', 'not_found');
    await callJson('discover', o, `/actions/${name}`, EMPTY, { method: 'PUT', token, query: { ratingKey: key }, bare: true, signal });
  };
  return {
    baseUrl: trimBase(o.baseUrl),
    async watchlist(token, opts = {}) {
      const headers: Record<string, string> = { 'X-Plex-Container-Start': String(opts.start ?? 0), 'X-Plex-Container-Size': String(opts.size ?? 50) };
      const res = await callJson('discover', o, '/library/sections/watchlist/all', DiscoverContainer, { token, headers, query: { type: opts.type ? TYPE_NO[opts.type] : undefined, includeCollections: 1, includeExternalMedia: 1 }, signal: opts.signal });
      const mc = res.MediaContainer;
      return { items: mc.Metadata.map(toDiscover), totalSize: mc.totalSize ?? mc.Metadata.length, offset: mc.offset ?? 0 };
    },
    addToWatchlist: (token, key, opts = {}) => action(token, 'addToWatchlist', key, opts.signal),
    removeFromWatchlist: (token, key, opts = {}) => action(token, 'removeFromWatchlist', key, opts.signal),
    async metadata(token, key, opts = {}) {
      if (!DISCOVER_KEY.test(key)) return null;
      try {
        const res = await callJson('discover', o, `/library/metadata/${key}`, DiscoverContainer, { token, signal: opts.signal });
        const first = res.MediaContainer.Metadata[0];
        return first ? toDiscover(first) : null;
      } catch (err) {
        if (err instanceof MediaServerError && err.failure === 'not_found') return null;
        throw err;
      }
    },
    async matches(token, q, opts = {}) {
      const query = 'guid' in q ? { type: TYPE_NO[q.type], guid: q.guid } : { type: TYPE_NO[q.type], title: q.title, year: q.year ?? undefined };
      const res = await callJson('discover', o, '/library/metadata/matches', DiscoverContainer, { token, query, signal: opts.signal });
      return res.MediaContainer.Metadata.map(toDiscover);
    },
    async search(token, query, opts) {
      const q = { query, searchTypes: opts.type === 'movie' ? 'movies' : 'tv', searchProviders: 'discover', includeMetadata: 1, limit: opts.limit ?? 30 };
      const res = await callJson('discover', o, '/library/search', SearchContainer, { token, query: q, signal: opts.signal });
      const external = res.MediaContainer.SearchResults.find((r) => r.id === 'external') ?? res.MediaContainer.SearchResults[0];
      return (external?.SearchResult ?? []).flatMap((r) => (r.Metadata && r.Metadata.type === opts.type ? [toDiscover(r.Metadata)] : []));
    },
  };
}
