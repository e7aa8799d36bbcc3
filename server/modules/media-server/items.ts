// Pure: a server item (the adapter's PlexItem) as the web app sees it. Image paths become Hearth's
// own proxy URLs (/api/mediaserver/img?path=…), so no server address or token reaches a browser.
import type { PlexItem } from '../../adapters/media-server/plex.js';
import { resolveMedia, type Resolution } from './guids.js';
import type { MediaItem, MediaKind, MediaRoute } from './schema.js';

/** The proxy URL for a server image path, sized for its slot; null for none or a foreign URL. */
export function imgUrl(path: string | null | undefined, w = 300, h = 450): string | null {
  if (!path || !path.startsWith('/') || path.startsWith('//')) return null;
  // the server may append ?t=<timestamp> (a cache buster): keep only the path
  const clean = path.split('?')[0]!;
  if (!/^\/(library|photo)\/[A-Za-z0-9/_.:%-]+$/.test(clean)) return null;
  return `/api/mediaserver/img?${new URLSearchParams({ path: clean, w: String(w), h: String(h) }).toString()}`;
}

const KINDS: Record<string, MediaKind> = { movie: 'movie', show: 'show', season: 'season', episode: 'episode', clip: 'clip' };

export function routeOf(r: Resolution): MediaRoute {
  return {
    kind: r.kind,
    key: r.key,
    showId: r.kind === 'show' ? r.showId : null,
    season: r.kind === 'show' ? r.season : null,
    episode: r.kind === 'show' ? r.episode : null,
    watchlistable: r.discoverKey !== null,
  };
}

export interface ToMediaItemOptions {
  /** The caller's own view of the item (their token's viewCount/viewOffset); without it, unwatched. */
  personal?: boolean;
  /** Attach rule 4's route (resolution is cheap and pure; caching is the library's concern). */
  route?: MediaRoute | null;
}

export function toMediaItem(item: PlexItem, opts: ToMediaItemOptions = {}): MediaItem {
  const kind = KINDS[item.type] ?? 'other';
  const personal = opts.personal ?? false;
  const isEpisode = kind === 'episode';
  const isSeason = kind === 'season';
  const leafWatched = item.leafCount !== null && item.leafCount > 0 && item.viewedLeafCount === item.leafCount;
  return {
    ratingKey: item.ratingKey,
    kind,
    title: item.title,
    showTitle: isEpisode ? item.grandparentTitle : isSeason ? item.parentTitle : null,
    season: isEpisode ? item.parentIndex : isSeason ? item.index : null,
    episode: isEpisode ? item.index : null,
    year: item.year,
    summary: item.summary,
    thumbUrl: imgUrl(item.thumb ?? item.parentThumb ?? item.grandparentThumb),
    artUrl: imgUrl(item.art, 1280, 720),
    durationMs: item.durationMs,
    viewOffsetMs: personal && item.viewOffsetMs > 0 ? item.viewOffsetMs : null,
    watched: personal && (item.viewCount > 0 || leafWatched),
    addedAt: item.addedAt ? new Date(item.addedAt * 1000).toISOString() : null,
    // the stream proxy plays movies only (home videos are movies of a personal-media section)
    playable: kind === 'movie' && item.parts.length > 0,
    route: opts.route === undefined ? null : opts.route,
  };
}

/** Rule 4 for one item, without the cache (the library caches by its key). */
export function resolveRoute(item: PlexItem, show?: PlexItem | null): MediaRoute {
  return routeOf(resolveMedia(item, show ?? null));
}

/** A season entry made from its newest episode (recent's grouping): no extra call. */
export function seasonOf(e: PlexItem): PlexItem {
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
