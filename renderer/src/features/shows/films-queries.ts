// Films as hooks (TanStack Query, see api/query.ts): search (Plex's catalogue, TMDB or the
// household's library, whichever Hearth uses for this member), one film with the Plex badge, the
// member's film watchlist, and the admin's TMDB token (set or removed, never read back).
// Everything lives under FILMS_KEY.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { MovieResponse, SearchResponse, WatchlistAddResponse, WatchlistEntry } from '../../../../server/modules/movies/schema.js';

export type { MovieResponse, MovieSummary, SearchResponse as FilmSearchResponse, WatchlistAddResponse, WatchlistEntry as FilmWatchlistEntry } from '../../../../server/modules/movies/schema.js';

const API = '/api/movies';
const FILMS_KEY = ['films'] as const;
const WATCHLIST_KEY = [...FILMS_KEY, 'watchlist'] as const;
const TMDB_KEY = [...FILMS_KEY, 'tmdb'] as const;
export const filmHref = (id: string) => `/watch/films/${encodeURIComponent(id)}`;

export function useFilmSearch(q: string) {
  return useQuery({
    queryKey: [...FILMS_KEY, 'search', q],
    enabled: q.length > 0,
    retry: false,
    staleTime: 60 * 60_000,
    queryFn: ({ signal }) => api.get<SearchResponse>(`${API}/search?q=${encodeURIComponent(q)}`, { signal }),
  });
}

export function useFilm(id: string) {
  return useQuery({ queryKey: [...FILMS_KEY, 'film', id], enabled: id !== '', retry: false, queryFn: ({ signal }) => api.get<MovieResponse>(`${API}/${encodeURIComponent(id)}`, { signal }) });
}

export function useFilmWatchlist() {
  return useQuery({ queryKey: WATCHLIST_KEY, queryFn: ({ signal }) => api.get<{ movies: WatchlistEntry[] }>(`${API}/watchlist`, { signal }).then((r) => r.movies) });
}

export function useAddFilm() {
  return useMutation({ mutationFn: (id: string) => api.post<WatchlistAddResponse>(`${API}/watchlist`, { id }), meta: { invalidates: [FILMS_KEY] } });
}

/** Tries again to put a film of the watchlist on the member's own Plex watchlist. */
export function useCopyFilmToPlex() {
  return useMutation({ mutationFn: (id: string) => api.post<WatchlistAddResponse>(`${API}/watchlist/${encodeURIComponent(id)}/plex`, {}), meta: { invalidates: [WATCHLIST_KEY] } });
}

export function useRemoveFilm() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(`${API}/watchlist/${encodeURIComponent(id)}`), meta: { invalidates: [FILMS_KEY] } });
}

/** Whether an admin has added a TMDB token (admins only). */
export function useTmdbStatus(enabled: boolean) {
  return useQuery({ queryKey: TMDB_KEY, enabled, queryFn: ({ signal }) => api.get<{ configured: boolean }>(`${API}/admin/tmdb`, { signal }) });
}

export function useSetTmdbToken() {
  return useMutation({ mutationFn: (token: string) => api.put<{ configured: boolean }>(`${API}/admin/tmdb`, { token }), meta: { invalidates: [FILMS_KEY] } });
}

export function useClearTmdbToken() {
  return useMutation({ mutationFn: () => api.delete<void>(`${API}/admin/tmdb`), meta: { invalidates: [FILMS_KEY] } });
}
