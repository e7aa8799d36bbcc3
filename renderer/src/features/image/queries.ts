// Image generation's API calls as hooks (TanStack Query, see api/query.ts). Everything lives under
// IMAGE_KEY: the engine's status (read again every 3 s while the engine starts, so "Getting ready"
// turns into the page by itself), the member's LoRAs, the history (kind is part of its key) and the
// member's running job. A finished, cancelled or deleted picture invalidates the history.
import { useCallback } from 'react';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import {
  artifactApi,
  IMAGE_API,
  type ArtifactKind,
  type BuildingResponse,
  type HistoryResponse,
  type ImageStatusResponse,
  type MemberLorasResponse,
  type PreviewCheckResponse,
} from './types';

export const IMAGE_KEY = ['image'] as const;
export const STATUS_KEY = [...IMAGE_KEY, 'status'] as const;
export const HISTORY_KEY = [...IMAGE_KEY, 'history'] as const;
const LORAS_KEY = [...IMAGE_KEY, 'loras'] as const;
const BUILDING_KEY = [...IMAGE_KEY, 'building'] as const;

export const STATUS_POLL_MS = 3_000;
const STARTING = new Set(['installing', 'warming']);

/** The engine's state and what each pipeline can do; asking starts the engine when it is set up. */
export function useImageStatus() {
  return useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => api.get<ImageStatusResponse>(`${IMAGE_API}/status`, { signal }),
    refetchInterval: (q) => (q.state.data && (STARTING.has(q.state.data.state) || (q.state.data.configured && q.state.data.state === 'idle')) ? STATUS_POLL_MS : false),
  });
}

/** The LoRAs this member may use (only the granted ones for a member). */
export function useMemberLoras(enabled = true) {
  return useQuery({
    queryKey: LORAS_KEY,
    enabled,
    queryFn: ({ signal }) => api.get<MemberLorasResponse>(`${IMAGE_API}/loras`, { signal }).then((r) => r.loras),
  });
}

export function historyUrl(kind: ArtifactKind | null, offset = 0, limit?: number): string {
  const s = new URLSearchParams();
  if (kind) s.set('kind', kind);
  if (limit) s.set('limit', String(limit));
  if (offset > 0) s.set('offset', String(offset));
  const q = s.toString();
  return `${IMAGE_API}/history${q ? `?${q}` : ''}`;
}

/** The member's finished pictures, newest first, a page at a time. */
export function useHistory(kind: ArtifactKind | null) {
  return useInfiniteQuery({
    queryKey: [...HISTORY_KEY, kind],
    queryFn: ({ signal, pageParam }) => api.get<HistoryResponse>(historyUrl(kind, pageParam), { signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** The member's job still on its way (to follow it again after a reload), or null. */
export function useBuilding() {
  return useQuery({
    queryKey: BUILDING_KEY,
    queryFn: ({ signal }) => api.get<BuildingResponse>(`${IMAGE_API}/building`, { signal }).then((r) => r.artifact),
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}

export function useDeleteArtifact() {
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(artifactApi(id)),
    meta: { invalidates: [HISTORY_KEY] },
  });
}

export function cancelArtifact(id: string): Promise<unknown> {
  return api.post(`${artifactApi(id)}/cancel`, {});
}

export function previewCheck(id: string): Promise<PreviewCheckResponse> {
  return api.post<PreviewCheckResponse>(`${IMAGE_API}/preview-check`, { id });
}

/** After a picture job ends (a stream, not a mutation): the history and what is being built are read again. */
export function useImageJobEnded(): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    void client.invalidateQueries({ queryKey: HISTORY_KEY });
    void client.invalidateQueries({ queryKey: [...IMAGE_KEY, 'building'] });
  }, [client]);
}
