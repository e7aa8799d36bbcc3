// The admin Storage page's API calls as hooks: the areas, free space and trend (GET /api/admin/storage)
// and the clean-up (POST /api/admin/storage/cleanup: a dry run, then the confirmed list).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CleanupBody, CleanupResponse, StorageResponse } from '../../../../server/modules/storage/schema.js';

export const ADMIN_STORAGE_KEY = ['admin', 'storage'] as const;

export function useStorage() {
  return useQuery({ queryKey: ADMIN_STORAGE_KEY, queryFn: ({ signal }) => api.get<StorageResponse>('/api/admin/storage', { signal }) });
}

export function useCleanup() {
  return useMutation({
    mutationFn: (body: CleanupBody) => api.post<CleanupResponse>('/api/admin/storage/cleanup', body),
    meta: { invalidates: [ADMIN_STORAGE_KEY] },
  });
}
