// Podcasts as hooks (TanStack Query, see api/query.ts): the member's shows (and whether Hearth is in
// offline mode), a show's episodes, the inbox, the directory search, following and unfollowing, OPML
// import, offline copies (download, remove, keep the newest N), and saving a position.
// Everything lives under LISTEN_KEY, so any write asks the lists again.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { z } from 'zod';
import { api, apiFetch } from '../../api/client';
import type { Episode, OpmlImportResponse, PodcastIndexStatusResponse, PodcastSearchResponse, Subscription, SubscriptionsResponse as SubscriptionsSchema } from '../../../../server/modules/podcasts/schema.js';

export type { Episode, OpmlImportResponse, Subscription } from '../../../../server/modules/podcasts/schema.js';
export type PodcastSearch = z.infer<typeof PodcastSearchResponse>;
export type PodcastResult = PodcastSearch['results'][number];
type PodcastIndexStatus = z.infer<typeof PodcastIndexStatusResponse>;
type SubscriptionsResponse = z.infer<typeof SubscriptionsSchema>;

const API = '/api/podcasts';
export const LISTEN_KEY = ['listen'] as const;
const SUBS_KEY = [...LISTEN_KEY, 'subscriptions'] as const;
const INBOX_KEY = [...LISTEN_KEY, 'inbox'] as const;
/** Where the member's shows download as an OPML file. */
export const OPML_HREF = `${API}/opml`;
export const showHref = (id: string) => `/listen/${encodeURIComponent(id)}`;
export const audioPath = (id: string) => `${API}/episodes/${encodeURIComponent(id)}/audio`;

const subscriptionsQuery = { queryKey: SUBS_KEY, queryFn: ({ signal }: { signal: AbortSignal }) => api.get<SubscriptionsResponse>(`${API}/subscriptions`, { signal }) };

export function useSubscriptions() {
  return useQuery({ ...subscriptionsQuery, select: (r: SubscriptionsResponse) => r.subscriptions });
}

/** Whether Hearth is in offline mode now (asked with the member's shows): what needs the internet is disabled, with the reason. */
export function useListenOffline(): boolean {
  return useQuery({ ...subscriptionsQuery, select: (r: SubscriptionsResponse) => r.offline }).data === true;
}

/** While a copy is waiting or downloading, its list asks again every few seconds. */
const whileDownloading = (episodes: Episode[] | undefined) => (episodes?.some((e) => e.download && (e.download.state === 'waiting' || e.download.state === 'downloading')) ? 2_000 : false);

export function useEpisodes(subscriptionId: string) {
  return useQuery({
    queryKey: [...LISTEN_KEY, 'episodes', subscriptionId],
    queryFn: ({ signal }) => api.get<{ episodes: Episode[] }>(`${API}/subscriptions/${encodeURIComponent(subscriptionId)}/episodes`, { signal }).then((r) => r.episodes),
    refetchInterval: (q) => whileDownloading(q.state.data),
  });
}

export function useInbox() {
  return useQuery({
    queryKey: INBOX_KEY,
    queryFn: ({ signal }) => api.get<{ episodes: Episode[] }>(`${API}/inbox`, { signal }).then((r) => r.episodes),
    refetchInterval: (q) => whileDownloading(q.state.data),
  });
}

/** An offline copy of the episode, fetched by Hearth's download queue. */
export function useDownloadEpisode() {
  return useMutation({ mutationFn: (id: string) => api.post<{ episode: Episode }>(`${API}/episodes/${encodeURIComponent(id)}/download`), meta: { invalidates: [LISTEN_KEY] } });
}

/** Removes the episode's offline copy (or stops its download). */
export function useRemoveDownload() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(`${API}/episodes/${encodeURIComponent(id)}/download`), meta: { invalidates: [LISTEN_KEY] } });
}

/** Keep offline copies of a show's newest N episodes (null: keep every copy, download none by itself). */
export function useKeepNewest() {
  return useMutation({
    mutationFn: ({ id, keepNewest }: { id: string; keepNewest: number | null }) => api.patch<{ subscription: Subscription }>(`${API}/subscriptions/${encodeURIComponent(id)}`, { keepNewest }),
    meta: { invalidates: [LISTEN_KEY] },
  });
}

/** The directory's answer for `q` (asked only once something is typed and sent). */
export function usePodcastSearch(q: string) {
  return useQuery({
    queryKey: [...LISTEN_KEY, 'search', q],
    enabled: q.length > 0,
    retry: false,
    staleTime: 60 * 60_000,
    queryFn: ({ signal }) => api.get<PodcastSearch>(`${API}/search?q=${encodeURIComponent(q)}`, { signal }),
  });
}

const SEARCH_KEY = [...LISTEN_KEY, 'search'] as const;
const PODCAST_INDEX_KEY = ['admin', 'podcasts', 'podcast-index'] as const;
const PODCAST_INDEX_API = '/api/admin/podcasts/podcast-index';

/** Whether an admin added a Podcast Index key (admins only; the secret is never sent back). */
export function usePodcastIndexStatus() {
  return useQuery({ queryKey: PODCAST_INDEX_KEY, queryFn: ({ signal }) => api.get<PodcastIndexStatus>(PODCAST_INDEX_API, { signal }) });
}

/** Saves the pair once Podcast Index accepts it; searches are asked again (the directory changes). */
export function useSetPodcastIndex() {
  return useMutation({ mutationFn: (pair: { key: string; secret: string }) => api.put<PodcastIndexStatus>(PODCAST_INDEX_API, pair), meta: { invalidates: [PODCAST_INDEX_KEY, SEARCH_KEY] } });
}

export function useClearPodcastIndex() {
  return useMutation({ mutationFn: () => api.delete<void>(PODCAST_INDEX_API), meta: { invalidates: [PODCAST_INDEX_KEY, SEARCH_KEY] } });
}

export function useFollow() {
  return useMutation({ mutationFn: (feedUrl: string) => api.post<{ subscription: Subscription }>(`${API}/subscriptions`, { feedUrl }), meta: { invalidates: [SUBS_KEY, INBOX_KEY] } });
}

export function useUnfollow() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(`${API}/subscriptions/${encodeURIComponent(id)}`), meta: { invalidates: [LISTEN_KEY] } });
}

export function useRefreshShow() {
  return useMutation({ mutationFn: (id: string) => api.post<{ episodes: Episode[] }>(`${API}/subscriptions/${encodeURIComponent(id)}/refresh`), meta: { invalidates: [LISTEN_KEY] } });
}

export function useImportOpml() {
  return useMutation({ mutationFn: (xml: string) => api.postText<OpmlImportResponse>(`${API}/opml`, xml, 'text/xml'), meta: { invalidates: [LISTEN_KEY] } });
}

/**
 * Saves where the member is in an episode, stamped now (the server keeps the later of two
 * reports). `keepalive` for the page going away: the request outlives the page.
 */
function saveProgress(episodeId: string, positionSec: number, durationSec: number, keepalive: boolean): Promise<unknown> {
  const path = `${API}/episodes/${encodeURIComponent(episodeId)}/progress`;
  const body = { positionSec: Math.max(0, Math.round(positionSec)), durationSec: Math.max(0, Math.round(durationSec)), updatedAt: new Date().toISOString() };
  if (!keepalive) return api.put(path, body);
  return apiFetch(path, { method: 'PUT', keepalive: true, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

/** saveProgress, then the lists ask again (not after a keepalive save: the page is going away). */
export function useSaveProgress() {
  const client = useQueryClient();
  return useCallback(
    async (episodeId: string, positionSec: number, durationSec: number, keepalive = false) => {
      await saveProgress(episodeId, positionSec, durationSec, keepalive);
      if (!keepalive) void client.invalidateQueries({ queryKey: LISTEN_KEY });
    },
    [client],
  );
}
