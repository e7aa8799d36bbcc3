// The admin's storage locations and members' library provisioning as hooks (TanStack Query,
// api/query.ts). The provisioning rows are read again every 2 s while one is being set up. Every
// write invalidates STORAGE_KEY (a checked mapping or a new location changes what may be provisioned).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { MEDIA_KEY } from '../media';
import type { AdminSectionsResponse, ContentType, MappingCheckResponse, StorageLocationResponse, StorageLocationsResponse, UploadLimits } from '../../../../server/modules/media-server/schema.js';

export const STORAGE_KEY = [...MEDIA_KEY, 'storage'] as const;
export const LOCATIONS_PATH = '/api/admin/storage-locations';
export const SECTIONS_PATH = '/api/mediaserver/admin/library-sections';
export const UPLOAD_LIMITS_PATH = '/api/mediaserver/admin/upload-limits';
const SETTING_UP_POLL_MS = 2_000;
const locationPath = (id: string) => `${LOCATIONS_PATH}/${encodeURIComponent(id)}`;

export function useStorageLocations() {
  return useQuery({ queryKey: [...STORAGE_KEY, 'locations'], queryFn: ({ signal }) => api.get<StorageLocationsResponse>(LOCATIONS_PATH, { signal }) });
}

export function useAdminSections() {
  return useQuery({
    queryKey: [...STORAGE_KEY, 'sections'],
    queryFn: ({ signal }) => api.get<AdminSectionsResponse>(SECTIONS_PATH, { signal }),
    refetchInterval: (q) => (q.state.data?.rows.some((r) => r.section && ['queued', 'creating', 'scanning'].includes(r.section.status)) ? SETTING_UP_POLL_MS : false),
  });
}

export interface LocationInput {
  name: string;
  localPath: string;
  contentTypes: ContentType[];
  serverPath: string | null;
}

export function useSaveLocation() {
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: LocationInput }) => (id ? api.patch<StorageLocationResponse>(locationPath(id), input) : api.post<StorageLocationResponse>(LOCATIONS_PATH, input)),
    meta: { invalidates: [STORAGE_KEY] },
  });
}

export function useDeleteLocation() {
  return useMutation({ mutationFn: (id: string) => api.delete(locationPath(id)), meta: { invalidates: [STORAGE_KEY] } });
}

export function useCheckLocation() {
  return useMutation({ mutationFn: (id: string) => api.post<MappingCheckResponse>(`${locationPath(id)}/check`), meta: { invalidates: [STORAGE_KEY] } });
}

export function useProvision() {
  return useMutation({
    mutationFn: (body: { userId: string; contentType: ContentType }) => api.post('/api/mediaserver/admin/provision', body),
    meta: { invalidates: [STORAGE_KEY] },
  });
}

/** What each member's unfinished home-video uploads may hold (the household's setting). */
export function useUploadLimits() {
  return useQuery({ queryKey: [...STORAGE_KEY, 'upload-limits'], queryFn: ({ signal }) => api.get<UploadLimits>(UPLOAD_LIMITS_PATH, { signal }) });
}

export function useSaveUploadLimits() {
  return useMutation({ mutationFn: (limits: UploadLimits) => api.put<UploadLimits>(UPLOAD_LIMITS_PATH, limits), meta: { invalidates: [STORAGE_KEY] } });
}
