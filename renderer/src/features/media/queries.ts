// The Media page's and the title page's API calls as hooks (TanStack Query, see api/query.ts).
// Everything lives under MEDIA_KEY: the caller's connection and link status (m-conn's /status),
// the four feeds and one title. Marking watched or changing the watchlist invalidates the feeds and
// the title, so the rails and the page show the new state before the button stops spinning.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { FeedResponse, HubsResponse, MediaStatus, MetaResponse, SessionsResponse } from '../../../../server/modules/media-server/schema.js';

export type { FeedResponse, HubsResponse, MediaItem, MediaStatus, MetaResponse, SessionsResponse } from '../../../../server/modules/media-server/schema.js';

export const MEDIA_API = '/api/mediaserver';
export const MEDIA_KEY = ['media'] as const;
export const STATUS_KEY = [...MEDIA_KEY, 'status'] as const;
const FEEDS_KEY = [...MEDIA_KEY, 'feeds'] as const;
const TITLE_KEY = [...MEDIA_KEY, 'title'] as const;
/** Now playing changes by itself: asked again this often while the page is open. */
export const SESSIONS_POLL_MS = 15_000;

/** Where the member links their own Plex account (the connection's page). */
export const LINK_HREF = '/media/link';
export const titleHref = (ratingKey: string) => `/media/title/${encodeURIComponent(ratingKey)}`;
export const playHref = (ratingKey: string) => `/media/play/${encodeURIComponent(ratingKey)}`;

export function useMediaStatus(enabled = true) {
  return useQuery({ queryKey: STATUS_KEY, enabled, queryFn: ({ signal }) => api.get<MediaStatus>(`${MEDIA_API}/status`, { signal }) });
}

export const FEEDS = {
  ondeck: `${MEDIA_API}/ondeck`,
  recent: `${MEDIA_API}/recent`,
  hubs: `${MEDIA_API}/hubs?limit=12`,
  sessions: `${MEDIA_API}/sessions`,
} as const;

export function useFeed(which: 'ondeck' | 'recent', enabled: boolean) {
  return useQuery({ queryKey: [...FEEDS_KEY, which], enabled, retry: false, queryFn: ({ signal }) => api.get<FeedResponse>(FEEDS[which], { signal }) });
}

export function useHubs(enabled: boolean) {
  return useQuery({ queryKey: [...FEEDS_KEY, 'hubs'], enabled, retry: false, queryFn: ({ signal }) => api.get<HubsResponse>(FEEDS.hubs, { signal }) });
}

export function useSessions(enabled: boolean) {
  return useQuery({
    queryKey: [...FEEDS_KEY, 'sessions'],
    enabled,
    retry: false,
    refetchInterval: SESSIONS_POLL_MS,
    queryFn: ({ signal }) => api.get<SessionsResponse>(FEEDS.sessions, { signal }),
  });
}

export function useTitle(ratingKey: string) {
  return useQuery({ queryKey: [...TITLE_KEY, ratingKey], retry: false, queryFn: ({ signal }) => api.get<MetaResponse>(`${MEDIA_API}/meta/${encodeURIComponent(ratingKey)}`, { signal }) });
}

/** What a watched toggle or a watchlist change may alter: every feed and every title. */
export const MEDIA_WRITES = [FEEDS_KEY, TITLE_KEY] as const;

export const setWatched = (ratingKey: string, watched: boolean) => api.post(`${MEDIA_API}/meta/${encodeURIComponent(ratingKey)}/watched`, { watched });
export const setOnWatchlist = (ratingKey: string, remove: boolean) => api.post<{ onWatchlist: boolean }>(`${MEDIA_API}/watchlist`, { ratingKey, remove });
