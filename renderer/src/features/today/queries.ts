// Today's API as hooks: the forecast, "on this day", the headlines, and the admin's settings (the
// household's place, news feeds, each source's status). Every change invalidates TODAY_KEY, so the
// widgets, the Today page and the admin page agree.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type {
  BriefingResponse,
  BriefingSettingsResponse,
  Location,
  LocationSearchResponse,
  NewsFeed,
  NewsFeedsResponse,
  NewsResponse,
  OpmlImportResponse,
  OnThisDayResponse,
  RefreshResponse,
  Sections,
  WeatherSource,
  SportsResponse,
  SportsTodayResponse,
  Team,
  WeatherResponse,
} from '../../../../server/modules/today/schema.js';

export const TODAY_KEY = ['today'] as const;
export const WEATHER_PATH = '/api/weather';
export const ON_THIS_DAY_PATH = '/api/on-this-day';
export const NEWS_PATH = '/api/news?limit=30';
export const BRIEFING_ADMIN_PATH = '/api/admin/briefing';
export const NEWS_FEEDS_PATH = '/api/admin/news/feeds';
/** Widgets and the page read again every 10 minutes while open (the server refreshes the sources itself). */
const REFRESH_MS = 10 * 60_000;

/** The member's morning briefing (cached facts, and the chat model's summary when chat is ready). */
export function useBriefing() {
  return useQuery({ queryKey: [...TODAY_KEY, 'briefing'], queryFn: ({ signal }) => api.get<BriefingResponse>('/api/briefing', { signal }), refetchInterval: REFRESH_MS, retry: false });
}

export function useWeather() {
  return useQuery({ queryKey: [...TODAY_KEY, 'weather'], queryFn: ({ signal }) => api.get<WeatherResponse>(WEATHER_PATH, { signal }), refetchInterval: REFRESH_MS, retry: false });
}

export function useOnThisDay() {
  return useQuery({ queryKey: [...TODAY_KEY, 'on-this-day'], queryFn: ({ signal }) => api.get<OnThisDayResponse>(ON_THIS_DAY_PATH, { signal }), refetchInterval: REFRESH_MS, retry: false });
}

export function useNews() {
  return useQuery({ queryKey: [...TODAY_KEY, 'news'], queryFn: ({ signal }) => api.get<NewsResponse>(NEWS_PATH, { signal }), refetchInterval: REFRESH_MS, retry: false });
}

export function useBriefingAdmin() {
  return useQuery({ queryKey: [...TODAY_KEY, 'admin'], queryFn: ({ signal }) => api.get<BriefingSettingsResponse>(BRIEFING_ADMIN_PATH, { signal }) });
}

export function useNewsFeeds() {
  return useQuery({ queryKey: [...TODAY_KEY, 'feeds'], queryFn: ({ signal }) => api.get<NewsFeedsResponse>(NEWS_FEEDS_PATH, { signal }) });
}

/** The admin's town search: asked only when the admin presses Search. */
export function useSearchPlace() {
  return useMutation({ mutationFn: (q: string) => api.get<LocationSearchResponse>(`/api/admin/briefing/location/search?q=${encodeURIComponent(q)}`) });
}

export function useSaveLocation() {
  return useMutation({ mutationFn: (loc: Location) => api.put<Location>('/api/admin/briefing/location', loc), meta: { invalidates: [TODAY_KEY] } });
}

export function useRefreshSource() {
  return useMutation({ mutationFn: (source: 'weather' | 'on-this-day' | 'news') => api.post<RefreshResponse>('/api/admin/briefing/refresh', { source }), meta: { invalidates: [TODAY_KEY] } });
}

export function useAddFeed() {
  return useMutation({ mutationFn: (url: string) => api.post<NewsFeed>(NEWS_FEEDS_PATH, { url }), meta: { invalidates: [TODAY_KEY] } });
}

export function useRemoveFeed() {
  return useMutation({ mutationFn: (id: number) => api.delete(`${NEWS_FEEDS_PATH}/${id}`), meta: { invalidates: [TODAY_KEY] } });
}

export function useHideFeed() {
  return useMutation({ mutationFn: ({ id, hidden }: { id: number; hidden: boolean }) => api.put(`/api/news/feeds/${id}/hidden`, { hidden }), meta: { invalidates: [TODAY_KEY] } });
}

export function useSports() {
  return useQuery({ queryKey: [...TODAY_KEY, 'sports'], queryFn: ({ signal }) => api.get<SportsResponse>('/api/sports', { signal }), refetchInterval: REFRESH_MS, retry: false });
}

export function useSportsToday() {
  return useQuery({ queryKey: [...TODAY_KEY, 'sports-today'], queryFn: ({ signal }) => api.get<SportsTodayResponse>('/api/sports/today', { signal }), refetchInterval: REFRESH_MS, retry: false });
}

/** The admin's team search: asked only when the admin presses Search. */
export function useSearchTeam() {
  return useMutation({ mutationFn: (q: string) => api.get<{ results: Team[] }>(`/api/admin/briefing/teams/search?q=${encodeURIComponent(q)}`) });
}

export function useFollowTeam() {
  return useMutation({ mutationFn: (teamId: string) => api.post<{ teams: Team[] }>('/api/admin/briefing/teams', { teamId }), meta: { invalidates: [TODAY_KEY] } });
}

export function useUnfollowTeam() {
  return useMutation({ mutationFn: (teamId: string) => api.delete<{ teams: Team[] }>(`/api/admin/briefing/teams/${encodeURIComponent(teamId)}`), meta: { invalidates: [TODAY_KEY] } });
}

export function useSetLanguage() {
  return useMutation({ mutationFn: (language: string) => api.put<{ language: string }>('/api/admin/briefing/language', { language }), meta: { invalidates: [TODAY_KEY] } });
}

/** Which Today sections the admin has on (the widgets and the Today page follow them). */
export function useTodaySections() {
  return useQuery({ queryKey: [...TODAY_KEY, 'sections'], queryFn: ({ signal }) => api.get<Sections>('/api/briefing/sections', { signal }), staleTime: 60_000 });
}

export function useSetSections() {
  return useMutation({ mutationFn: (patch: Partial<Sections>) => api.put<Sections>('/api/admin/briefing/sections', patch), meta: { invalidates: [TODAY_KEY] } });
}

/** The admin's OPML import: the file's text (or pasted XML) as the body. */
export function useImportOpml() {
  return useMutation({ mutationFn: (xml: string) => api.postText<OpmlImportResponse>('/api/admin/news/opml', xml, 'text/xml'), meta: { invalidates: [TODAY_KEY] } });
}

export function useSetWeatherSource() {
  return useMutation({ mutationFn: (source: WeatherSource) => api.put<{ source: WeatherSource }>('/api/admin/briefing/weather-source', { source }), meta: { invalidates: [TODAY_KEY] } });
}
