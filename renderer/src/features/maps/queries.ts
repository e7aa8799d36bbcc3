// Maps as hooks (TanStack Query, see api/query.ts): the installed regions, place search as you type,
// directions, the caller's saved places (with the household's), and for admins the region catalog
// and the household places. Every change to places invalidates the one places list.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AdminCatalogResponse, GeoResult, MapRegion, Place, RouteResponse } from '../../api/types';

export const REGIONS_KEY = ['maps', 'regions'] as const;
export const PLACES_KEY = ['maps', 'places'] as const;
export const CATALOG_KEY = ['maps', 'catalog'] as const;

export type TravelMode = 'car' | 'bike' | 'foot';
export interface LatLon {
  lat: number;
  lon: number;
}
const ll = (p: LatLon) => `${p.lat.toFixed(6)},${p.lon.toFixed(6)}`;

/** The regions installed on this Hearth (every member may see them). */
export function useMapRegions(enabled = true) {
  return useQuery({ queryKey: REGIONS_KEY, enabled, queryFn: ({ signal }) => api.get<{ regions: MapRegion[] }>('/api/maps/regions', { signal }).then((r) => r.regions) });
}

export interface GeocodeAnswer {
  results: GeoResult[];
  /** Set when the online search was asked and failed: the results are the offline ones. */
  notice: string | null;
}

/**
 * Places matching `q` (already debounced by the caller), nearest to `near` first; with `online`
 * (the member pressed Enter) also the online geocoder an admin set, if any.
 */
export function useGeocode(q: string, near: LatLon | null, online = false) {
  const query = q.trim();
  // about 100 m: panning a little does not search again
  const nearParam = near ? `&near=${near.lat.toFixed(3)},${near.lon.toFixed(3)}` : '';
  return useQuery<GeocodeAnswer>({
    queryKey: ['maps', 'geocode', query, nearParam, online],
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api.get<GeocodeAnswer>(`/api/maps/geocode?q=${encodeURIComponent(query)}${nearParam}&limit=8${online ? '&online=1' : ''}`, { signal }),
  });
}

export const GEOCODER_KEY = ['maps', 'geocoder'] as const;
export interface GeocoderConfig {
  provider: 'photon' | 'nominatim' | null;
  url: string | null;
}

/** The online geocoder an admin set (admins). */
export function useGeocoderConfig() {
  return useQuery({ queryKey: GEOCODER_KEY, queryFn: ({ signal }) => api.get<GeocoderConfig>('/api/admin/maps/geocoder', { signal }) });
}

export function useSaveGeocoder() {
  return useMutation({ mutationFn: (body: { provider: 'photon' | 'nominatim'; url: string }) => api.put<GeocoderConfig>('/api/admin/maps/geocoder', body), meta: { invalidates: [GEOCODER_KEY] } });
}

export function useRemoveGeocoder() {
  return useMutation({ mutationFn: () => api.delete<void>('/api/admin/maps/geocoder'), meta: { invalidates: [GEOCODER_KEY] } });
}

/** Directions between two points; null while nothing is asked. */
export function useRoute(from: LatLon | null, to: LatLon | null, mode: TravelMode) {
  return useQuery({
    queryKey: ['maps', 'route', from && ll(from), to && ll(to), mode],
    enabled: from !== null && to !== null,
    retry: false,
    queryFn: ({ signal }) => api.get<RouteResponse>(`/api/maps/route?from=${ll(from!)}&to=${ll(to!)}&mode=${mode}`, { signal }),
  });
}

/** The caller's saved places, then the household's (`household: true`). */
export function usePlaces() {
  return useQuery({ queryKey: PLACES_KEY, queryFn: ({ signal }) => api.get<{ places: Place[] }>('/api/maps/places', { signal }).then((r) => r.places) });
}

export interface PlaceInput extends LatLon {
  name: string;
  note?: string;
}

const placePath = (household: boolean, id?: string) => `/api/${household ? 'admin/maps' : 'maps'}/places${id ? `/${encodeURIComponent(id)}` : ''}`;

export function useAddPlace(household = false) {
  return useMutation({ mutationFn: (body: PlaceInput) => api.post<{ place: Place }>(placePath(household), body), meta: { invalidates: [PLACES_KEY] } });
}

export function useRenamePlace() {
  return useMutation({ mutationFn: ({ id, name }: { id: string; name: string }) => api.patch<{ place: Place }>(placePath(false, id), { name }), meta: { invalidates: [PLACES_KEY] } });
}

export function useRemovePlace(household = false) {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(placePath(household, id)), meta: { invalidates: [PLACES_KEY] } });
}

/** The region catalog with what is installed or downloading, and the disk's free bytes (admins). */
export function useMapCatalog() {
  return useQuery({ queryKey: CATALOG_KEY, queryFn: ({ signal }) => api.get<AdminCatalogResponse>('/api/admin/maps/catalog', { signal }) });
}

export function useRemoveRegion() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(`/api/admin/maps/${encodeURIComponent(id)}`), meta: { invalidates: [CATALOG_KEY, REGIONS_KEY] } });
}

/** Reads the catalog and the installed regions again (after a download ends, either way). */
export function useRefreshMaps(): () => Promise<unknown> {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: CATALOG_KEY }), client.invalidateQueries({ queryKey: REGIONS_KEY })]);
}
