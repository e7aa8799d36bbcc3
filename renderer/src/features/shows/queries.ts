// Shows as hooks (TanStack Query, see api/query.ts): TVmaze search, a show's guide with the member's
// ticks, the watchlist and the schedule. Everything lives under SHOWS_KEY; a tick is shown at once
// and put back if Hearth refuses it (useTick).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ScheduleResponse, ShowResponse, ShowSummary, WatchlistEntry } from '../../../../server/modules/shows/schema.js';

export type { Episode, ScheduleResponse, ShowResponse, ShowSummary, WatchlistEntry } from '../../../../server/modules/shows/schema.js';

const API = '/api/shows';
const SHOWS_KEY = ['shows'] as const;
const WATCHLIST_KEY = [...SHOWS_KEY, 'watchlist'] as const;
const SCHEDULE_KEY = [...SHOWS_KEY, 'schedule'] as const;
const showKey = (id: number) => [...SHOWS_KEY, 'show', id] as const;
export const showHref = (tvmazeId: number) => `/shows/${tvmazeId}`;

export function useShowSearch(q: string) {
  return useQuery({
    queryKey: [...SHOWS_KEY, 'search', q],
    enabled: q.length > 0,
    retry: false,
    staleTime: 60 * 60_000,
    queryFn: ({ signal }) => api.get<{ results: ShowSummary[] }>(`${API}/search?q=${encodeURIComponent(q)}`, { signal }).then((r) => r.results),
  });
}

export function useShow(id: number) {
  return useQuery({ queryKey: showKey(id), retry: false, queryFn: ({ signal }) => api.get<ShowResponse>(`${API}/${id}`, { signal }) });
}

export function useWatchlist() {
  return useQuery({ queryKey: WATCHLIST_KEY, queryFn: ({ signal }) => api.get<{ shows: WatchlistEntry[] }>(`${API}/watchlist`, { signal }).then((r) => r.shows) });
}

export function useSchedule() {
  return useQuery({ queryKey: SCHEDULE_KEY, queryFn: ({ signal }) => api.get<ScheduleResponse>(`${API}/schedule`, { signal }) });
}

export function useAddToWatchlist() {
  return useMutation({ mutationFn: (tvmazeId: number) => api.post<{ show: WatchlistEntry }>(`${API}/watchlist`, { tvmazeId }), meta: { invalidates: [SHOWS_KEY] } });
}

export function useRemoveFromWatchlist() {
  return useMutation({ mutationFn: (tvmazeId: number) => api.delete<void>(`${API}/watchlist/${tvmazeId}`), meta: { invalidates: [SHOWS_KEY] } });
}

/** Ticks or unticks an episode: shown at once, put back when Hearth refuses (the error is the mutation's). */
export function useTick(showId: number) {
  const client = useQueryClient();
  const key = showKey(showId);
  const write = (episodeId: number, watched: boolean) =>
    client.setQueryData<ShowResponse>(key, (d) => d && { ...d, episodes: d.episodes.map((e) => (e.id === episodeId ? { ...e, watched } : e)) });
  return useMutation({
    mutationFn: ({ episodeId, watched }: { episodeId: number; watched: boolean }) => api.put<{ episodeId: number; watched: boolean }>(`${API}/${showId}/episodes/${episodeId}`, { watched }),
    onMutate: async ({ episodeId, watched }) => {
      await client.cancelQueries({ queryKey: key });
      write(episodeId, watched);
    },
    onError: (_err, { episodeId, watched }) => write(episodeId, !watched),
    meta: { invalidates: [WATCHLIST_KEY] },
  });
}
