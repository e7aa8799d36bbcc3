// The archives API the Library reads, as hooks (TanStack Query, see api/query.ts). The admin's
// archive page invalidates ARCHIVES_KEY (and what else an archive changes) after a download, a
// cancel, a delete or a verify, so the Library and the tools show the change without a reload.
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { TOOLS_KEY } from '../apps';
import { FEATURES_KEY } from '../features-admin';
import { CHECKLIST_KEY } from '../home';
import type { Level } from '../../api/types';
import type { ArchiveCatalogResponse, ArchivesStatus, InstalledArchivesResponse, VerifyArchivesResponse } from './types';

export const ARCHIVES_KEY = ['archives'] as const;

export function useInstalledArchives() {
  return useQuery({
    queryKey: [...ARCHIVES_KEY, 'installed'],
    queryFn: ({ signal }) => api.get<InstalledArchivesResponse>('/api/archives/installed', { signal }),
  });
}

export function useArchivesStatus() {
  return useQuery({
    queryKey: [...ARCHIVES_KEY, 'status'],
    queryFn: ({ signal }) => api.get<ArchivesStatus>('/api/archives/status', { signal }),
  });
}

/** The archive catalog with what is installed (admins). */
export function useArchiveCatalog() {
  return useQuery({
    queryKey: [...ARCHIVES_KEY, 'catalog'],
    queryFn: ({ signal }) => api.get<ArchiveCatalogResponse>('/api/admin/archives/catalog', { signal }),
  });
}

/** What an archive change makes stale: the archives, the free disk (Features' plan), the tools'
 *  readiness (archive search needs an archive) and Home's Finish setting up card. */
export const ARCHIVE_CHANGES = [ARCHIVES_KEY, FEATURES_KEY, TOOLS_KEY, CHECKLIST_KEY] as const;

export function useCancelArchiveDownload() {
  return useMutation({
    mutationFn: (sourceId: string) => api.post(`/api/admin/archives/cancel/${encodeURIComponent(sourceId)}`),
    meta: { invalidates: ARCHIVE_CHANGES },
  });
}

export function useVerifyArchives() {
  return useMutation({
    mutationFn: () => api.post<VerifyArchivesResponse>('/api/admin/archives/verify').then((r) => r.results),
    meta: { invalidates: ARCHIVE_CHANGES },
  });
}

export function useDeleteArchive() {
  return useMutation({
    mutationFn: (sourceId: string) => api.delete(`/api/admin/archives/${encodeURIComponent(sourceId)}`),
    meta: { invalidates: ARCHIVE_CHANGES },
  });
}

/**
 * After a download or the archive server's install (streams, not mutations): the catalog, the
 * Library's shelves and everything else an archive changes are read again.
 */
export function useArchivesChanged(): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    for (const queryKey of ARCHIVE_CHANGES) void client.invalidateQueries({ queryKey });
  }, [client]);
}

/** PUT /api/admin/content/archives/:sourceId: members below this level no longer find the archive. */
export function useSetArchiveLevel() {
  return useMutation({
    mutationFn: ({ sourceId, level }: { sourceId: string; level: Level }) => api.put<unknown>(`/api/admin/content/archives/${encodeURIComponent(sourceId)}`, { level }),
    meta: { invalidates: ARCHIVE_CHANGES },
  });
}
