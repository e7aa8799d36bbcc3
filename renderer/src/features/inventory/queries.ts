// The inventory's API calls as hooks (TanStack Query, see api/query.ts). Every answer lives under
// INVENTORY_KEY: the list (its search and category are part of the key), one device, its
// maintenance suggestions, the warranties for a window. Each write names the keys it changes in
// `meta.invalidates`, so the list, the device page and the warranties agree without a reload. While
// any device in the list is still being looked up, the list is read again every LOOKUP_POLL_MS (3 s);
// a device page does the same for its own device.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type {
  LOOKUP_POLL_MS as SERVER_POLL_MS,
  DeviceResponse,
  DevicesResponse,
  FileResponse,
  IdentifyResponse,
  ImportResponse,
  LookupResponse,
  WebSearchResponse,
  MaintenanceResponse,
  ServiceEntryResponse,
  WarrantiesResponse,
} from '../../../../server/modules/home-inventory/schema.js';
import type { z } from 'zod';
import { API, deviceApi, type CreateDeviceBody, type DeviceCategory, type PatchDeviceBody, type ServiceType } from './types';
import { uploadFile } from '../../api/upload';

/** The server's LOOKUP_POLL_MS, restated (the web app imports only types from the server; the type keeps them equal). */
export const LOOKUP_POLL_MS: typeof SERVER_POLL_MS = 3_000;
export type Devices = z.infer<typeof DevicesResponse>;
export type Warranties = z.infer<typeof WarrantiesResponse>;
export type ImportResult = z.infer<typeof ImportResponse>;

export const INVENTORY_KEY = ['inventory'] as const;
const LIST_KEY = [...INVENTORY_KEY, 'devices'] as const;
const DEVICE_KEY = [...INVENTORY_KEY, 'device'] as const;
const WARRANTIES_KEY = [...INVENTORY_KEY, 'warranties'] as const;
export const deviceKey = (id: string) => [...DEVICE_KEY, id] as const;
const maintenanceKey = (id: string) => [...INVENTORY_KEY, 'maintenance', id] as const;
/** Whether the AI can answer now (shared with Chat's readiness: the same answer). */
const READINESS_KEY = ['chat', 'readiness'] as const;

/** Every write that changes a device changes these. */
const deviceChanged = (id: string) => [LIST_KEY, deviceKey(id), WARRANTIES_KEY] as const;

/** The list URL exactly as the page first asks for it (pages.tsx prefetches the unfiltered one); later pages add their offset. */
export function devicesUrl(q: string, category: DeviceCategory | null, offset = 0): string {
  const s = new URLSearchParams();
  if (q) s.set('q', q);
  if (category) s.set('category', category);
  if (offset > 0) s.set('offset', String(offset));
  const query = s.toString();
  return `${API}/devices${query ? `?${query}` : ''}`;
}

/**
 * The household's devices for a search and category, a page (100, name order) at a time: "Show
 * more" asks for the next one. Read again (every loaded page) every 3 s while any is being looked up.
 */
export function useDevices(q: string, category: DeviceCategory | null) {
  return useInfiniteQuery({
    queryKey: [...LIST_KEY, { q, category }],
    queryFn: ({ signal, pageParam }) => api.get<Devices>(devicesUrl(q, category, pageParam), { signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.pages.some((p) => p.devices.some((d) => d.lookupStatus === 'pending')) ? LOOKUP_POLL_MS : false),
  });
}

/** One device with its files, links and service log; read again every 3 s while it is being looked up. */
export function useDevice(id: string) {
  return useQuery({
    queryKey: deviceKey(id),
    queryFn: ({ signal }) => api.get<z.infer<typeof DeviceResponse>>(deviceApi(id), { signal }).then((r) => r.device),
    refetchInterval: (query) => (query.state.data?.lookupStatus === 'pending' ? LOOKUP_POLL_MS : false),
  });
}

/** Maintenance intervals found in the manual, offered as service-log drafts; asked only when there is a manual. */
export function useMaintenance(id: string, enabled: boolean, manualFetchedAt: string | null) {
  return useQuery({
    queryKey: [...maintenanceKey(id), manualFetchedAt],
    enabled,
    queryFn: ({ signal }) => api.get<z.infer<typeof MaintenanceResponse>>(`${deviceApi(id)}/maintenance`, { signal }).then((r) => r.suggestions),
  });
}

export function useWarranties(days: number) {
  return useQuery({
    queryKey: [...WARRANTIES_KEY, days],
    queryFn: ({ signal }) => api.get<Warranties>(`${API}/warranties?days=${days}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export interface Readiness {
  available: boolean;
  unavailableReason: string | null;
  fix: string | null;
}

export function useAiReadiness(enabled = true) {
  return useQuery({
    queryKey: READINESS_KEY,
    enabled,
    queryFn: ({ signal }) => api.get<Readiness>('/api/reader/ai-status', { signal }),
    staleTime: 30_000,
  });
}

// ---- writes ----------------------------------------------------------------------------------

export function useCreateDevice() {
  return useMutation({
    mutationFn: (body: CreateDeviceBody) => api.post<z.infer<typeof DeviceResponse>>(`${API}/devices`, body).then((r) => r.device),
    meta: { invalidates: [LIST_KEY, WARRANTIES_KEY] },
  });
}

/** Changes a device; saving confirmed brand and model starts its lookup on the server. */
export function usePatchDevice(id: string) {
  return useMutation({
    mutationFn: (body: PatchDeviceBody) => api.patch<z.infer<typeof DeviceResponse>>(deviceApi(id), body).then((r) => r.device),
    meta: { invalidates: deviceChanged(id) },
  });
}

/** Patches whichever device the call names (the add flow's draft has no id until it is made). */
export function usePatchAnyDevice() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PatchDeviceBody }) => api.patch<z.infer<typeof DeviceResponse>>(deviceApi(id), body).then((r) => r.device),
    meta: { invalidates: [LIST_KEY, DEVICE_KEY, WARRANTIES_KEY] },
  });
}

export function useDeleteDevice() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(deviceApi(id)),
    meta: { invalidates: [LIST_KEY, WARRANTIES_KEY] },
  });
}

export interface UploadVars {
  deviceId: string;
  file: File;
  role?: 'main' | 'photo' | 'file';
  comment?: string;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** A photo or a file (multipart), with upload progress. */
export function useUploadFile() {
  return useMutation({
    mutationFn: ({ deviceId, file, role, comment, onProgress, signal }: UploadVars) =>
      uploadFile<z.infer<typeof FileResponse>>(`${deviceApi(deviceId)}/files`, file, { fields: { role, comment }, onProgress, signal }).then((r) => r.file),
    meta: { invalidates: [LIST_KEY, DEVICE_KEY] },
  });
}

export function useDeleteFile(deviceId: string) {
  return useMutation({
    mutationFn: (fileId: string) => api.delete<void>(`${deviceApi(deviceId)}/files/${encodeURIComponent(fileId)}`),
    meta: { invalidates: deviceChanged(deviceId) },
  });
}

export function useFileComment(deviceId: string) {
  return useMutation({
    mutationFn: ({ fileId, comment }: { fileId: string; comment: string }) =>
      api.patch<z.infer<typeof FileResponse>>(`${deviceApi(deviceId)}/files/${encodeURIComponent(fileId)}/comment`, { comment }).then((r) => r.file),
    meta: { invalidates: [deviceKey(deviceId)] },
  });
}

export function useSetMainPhoto(deviceId: string) {
  return useMutation({
    mutationFn: (fileId: string) => api.post<unknown>(`${deviceApi(deviceId)}/set-main-photo`, { fileId }),
    meta: { invalidates: deviceChanged(deviceId) },
  });
}

/** Reads the label photo: fields for review, nothing written but the label text. */
export function useIdentify() {
  return useMutation({
    mutationFn: ({ deviceId, fileId }: { deviceId: string; fileId?: string }) => api.post<IdentifyResponse>(`${deviceApi(deviceId)}/identify`, fileId ? { fileId } : {}),
  });
}

const WEB_SEARCH_KEY = [...INVENTORY_KEY, 'web-search'] as const;

/** Whether the web lookup has a search server (everyone); its address and whether it can be changed here (admins). */
export function useWebSearch() {
  return useQuery({ queryKey: WEB_SEARCH_KEY, queryFn: ({ signal }) => api.get<z.infer<typeof WebSearchResponse>>(`${API}/web-search`, { signal }).then((r) => r.webSearch) });
}

/** An admin sets (or, with null, removes) the search server's address. */
export function useSetWebSearch() {
  return useMutation({
    mutationFn: (url: string | null) => api.put<z.infer<typeof WebSearchResponse>>(`${API}/web-search`, { url }).then((r) => r.webSearch),
    meta: { invalidates: [WEB_SEARCH_KEY] },
  });
}

/** Starts the web lookup again (or for the first time). */
export function useLookup(deviceId: string) {
  return useMutation({
    mutationFn: () => api.post<z.infer<typeof LookupResponse>>(`${deviceApi(deviceId)}/lookup`),
    meta: { invalidates: deviceChanged(deviceId) },
  });
}

export interface ServiceEntryInput {
  date: string;
  type: ServiceType;
  description: string;
  technician?: string | null;
  cost?: number | null;
}

export function useAddService(deviceId: string) {
  return useMutation({
    mutationFn: (body: ServiceEntryInput) => api.post<z.infer<typeof ServiceEntryResponse>>(`${deviceApi(deviceId)}/service`, body).then((r) => r.entry),
    meta: { invalidates: [deviceKey(deviceId), maintenanceKey(deviceId)] },
  });
}

export function useEditService(deviceId: string) {
  return useMutation({
    mutationFn: ({ entryId, body }: { entryId: string; body: Partial<ServiceEntryInput> }) =>
      api.patch<z.infer<typeof ServiceEntryResponse>>(`${deviceApi(deviceId)}/service/${encodeURIComponent(entryId)}`, body).then((r) => r.entry),
    meta: { invalidates: [deviceKey(deviceId), maintenanceKey(deviceId)] },
  });
}

export function useDeleteService(deviceId: string) {
  return useMutation({
    mutationFn: (entryId: string) => api.delete<void>(`${deviceApi(deviceId)}/service/${encodeURIComponent(entryId)}`),
    meta: { invalidates: [deviceKey(deviceId), maintenanceKey(deviceId)] },
  });
}

/** A Homebox CSV in: the list and warranties change. */
export function useImport() {
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: (f: number) => void }) => uploadFile<ImportResult>(`${API}/import`, file, { onProgress }),
    meta: { invalidates: [LIST_KEY, WARRANTIES_KEY] },
  });
}
