// A member's home videos as hooks (TanStack Query, api/query.ts): the list (read again every 5 s
// while a video is still being added to Plex, so "Ready" and its picture arrive on their own), the
// member's library sections with their sync settings, delete, and the settings' patch. Every write
// invalidates HOME_VIDEOS_KEY. The upload itself is tus (useResumableUpload in HomeVideosPage).
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { MEDIA_KEY } from './queries';
import type { HomeVideosResponse, MySectionsResponse, SyncMode } from '../../../../server/modules/media-server/schema.js';

export const HOME_VIDEOS_KEY = [...MEDIA_KEY, 'home-videos'] as const;
const LIST_KEY = [...HOME_VIDEOS_KEY, 'list'] as const;
const SECTIONS_KEY = [...HOME_VIDEOS_KEY, 'sections'] as const;
export const HOME_VIDEOS_PATH = '/api/mediaserver/me/videos';
export const MY_SECTIONS_PATH = '/api/mediaserver/me/library-sections';
/** The tus endpoint (server/modules/media-server/upload-routes.ts UPLOADS_PATH). */
export const UPLOADS_PATH = '/api/mediaserver/me/uploads';
const PENDING_POLL_MS = 5_000;

export function useHomeVideos() {
  return useQuery({
    queryKey: LIST_KEY,
    queryFn: ({ signal }) => api.get<HomeVideosResponse>(HOME_VIDEOS_PATH, { signal }),
    refetchInterval: (q) => (q.state.data?.videos.some((v) => v.state === 'stored') ? PENDING_POLL_MS : false),
  });
}

const SETTING_UP: ReadonlySet<string> = new Set(['queued', 'creating', 'scanning']);

/** The member's library sections (read again every 5 s while one is being set up, so the page and the navigation follow). */
export function useMySections(enabled = true) {
  return useQuery({
    queryKey: SECTIONS_KEY,
    enabled,
    queryFn: ({ signal }) => api.get<MySectionsResponse>(MY_SECTIONS_PATH, { signal }),
    refetchInterval: (q) => (q.state.data?.sections.some((s) => s.section && SETTING_UP.has(s.section.status)) ? PENDING_POLL_MS : false),
  });
}

export function useDeleteHomeVideo() {
  return useMutation({
    mutationFn: (id: string) => api.delete(`${HOME_VIDEOS_PATH}/${encodeURIComponent(id)}`),
    meta: { invalidates: [HOME_VIDEOS_KEY] },
  });
}

export interface SyncPatch {
  syncMode?: SyncMode;
  syncRecentCount?: number;
  removeWatched?: boolean;
}

export function useSaveSync() {
  return useMutation({
    mutationFn: (patch: SyncPatch) => api.patch<MySectionsResponse>(MY_SECTIONS_PATH, { contentType: 'mine', ...patch }),
    meta: { invalidates: [HOME_VIDEOS_KEY] },
  });
}

/** After an upload finished (a resumable upload, not a mutation): the home videos are read again. */
export function useHomeVideosChanged(): () => void {
  const client = useQueryClient();
  return useCallback(() => void client.invalidateQueries({ queryKey: HOME_VIDEOS_KEY }), [client]);
}
