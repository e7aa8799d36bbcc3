// The archives API the Library reads, as hooks (TanStack Query, see api/query.ts). The admin's
// archive page invalidates ARCHIVES_KEY after a download, a delete or a verify, so the Library
// shows the change the next time it is opened.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ArchivesStatus, InstalledArchivesResponse } from './types';

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
