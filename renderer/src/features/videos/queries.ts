// The video hub as hooks (TanStack Query, see api/query.ts): the hub, the household's channels,
// search through the admin's instance, OPML import, saving a copy for offline, and the admin's
// settings. Everything lives under VIDEOS_KEY, so any write asks the lists again.
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../api/client';
import type { Channel, HubResponse, OpmlImportResponse, SearchResponse, Video, VideoSettingsBody, VideoSettingsResponse, VstreamBody, VstreamStartResponse } from '../../../../server/modules/videos/schema.js';

export type { Channel, Video, VideoSettings, VstreamEntry } from '../../../../server/modules/videos/schema.js';

export const VIDEOS_KEY = ['videos'] as const;
const HUB_KEY = [...VIDEOS_KEY, 'hub'] as const;
const CHANNELS_KEY = [...VIDEOS_KEY, 'channels'] as const;
const SETTINGS_KEY = [...VIDEOS_KEY, 'settings'] as const;
/** Where the household's channels download as an OPML file. */
export const OPML_HREF = '/api/youtube/opml';

export function useHub() {
  return useQuery({ queryKey: HUB_KEY, queryFn: ({ signal }) => api.get<HubResponse>('/api/videos', { signal }) });
}

export function useChannels() {
  return useQuery({ queryKey: CHANNELS_KEY, queryFn: ({ signal }) => api.get<{ channels: Channel[] }>('/api/youtube/channels', { signal }).then((r) => r.channels) });
}

/** Search through the admin's instance (asked only once something is typed and sent). */
export function useVideoSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: [...VIDEOS_KEY, 'search', q],
    enabled: enabled && q.length > 0,
    retry: false,
    staleTime: 10 * 60_000,
    queryFn: ({ signal }) => api.get<SearchResponse>(`/api/youtube/search?q=${encodeURIComponent(q)}`, { signal }),
  });
}

export function useAddChannel() {
  return useMutation({ mutationFn: (url: string) => api.post<{ channel: Channel }>('/api/youtube/channels', { url }), meta: { invalidates: [VIDEOS_KEY] } });
}

export function useRemoveChannel() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(`/api/youtube/channels/${encodeURIComponent(id)}`), meta: { invalidates: [VIDEOS_KEY] } });
}

export function useImportChannels() {
  return useMutation({ mutationFn: (xml: string) => api.postText<OpmlImportResponse>('/api/youtube/opml', xml, 'text/xml'), meta: { invalidates: [VIDEOS_KEY] } });
}

export function useSaveVideo() {
  return useMutation({ mutationFn: (v: Video) => api.post<z.infer<typeof VstreamStartResponse>>('/api/vstream', { source: v.source, id: v.sourceId, ...(v.instance ? { instance: v.instance } : {}) } satisfies VstreamBody), meta: { invalidates: [VIDEOS_KEY] } });
}

export function useVideoSettings() {
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => api.get<z.infer<typeof VideoSettingsResponse>>('/api/admin/videos', { signal }) });
}

export function useSaveVideoSettings() {
  return useMutation({ mutationFn: (body: VideoSettingsBody) => api.put<z.infer<typeof VideoSettingsResponse>>('/api/admin/videos', body), meta: { invalidates: [VIDEOS_KEY] } });
}

export type { VideoSettingsBody };
