// The caller's content settings and adult state as hooks (TanStack Query, see api/query.ts):
// turning adult content on or off invalidates both, so the profile shows what the server has.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { CONTENT_KEY as CONTENT_ROOT } from '../../api/query-keys';
import type { ContentResponse, MemoriesResponse, Memory, MemorySetting, PrivacyResponse } from '../../api/types';

const CONTENT_KEY = [...CONTENT_ROOT, 'mine'] as const;
const PRIVACY_KEY = ['privacy'] as const;
const CHANGES = [CONTENT_KEY, PRIVACY_KEY] as const;

/** The caller's level per area and whether adult content is on (GET /api/content). */
export function useMyContent() {
  return useQuery({ queryKey: CONTENT_KEY, queryFn: ({ signal }) => api.get<ContentResponse>('/api/content', { signal }) });
}

/** This browser's adult state and until when (GET /api/privacy). */
export function usePrivacy() {
  return useQuery({ queryKey: PRIVACY_KEY, queryFn: ({ signal }) => api.get<PrivacyResponse>('/api/privacy', { signal }) });
}

export function useTurnOnAdult() {
  return useMutation({ mutationFn: (pin: string) => api.post<PrivacyResponse>('/api/privacy/adult', { pin }), meta: { invalidates: CHANGES } });
}

export function useTurnOffAdult() {
  return useMutation({ mutationFn: () => api.delete<PrivacyResponse>('/api/privacy/adult'), meta: { invalidates: CHANGES } });
}

const MEMORY_KEY = ['chat', 'memory'] as const;
const MEMORY_SETTING_KEY = ['admin', 'memory'] as const;

/** The caller's own memories and whether the household has memory on (GET /api/chat/memory). */
export function useMemories() {
  return useQuery({ queryKey: MEMORY_KEY, queryFn: ({ signal }) => api.get<MemoriesResponse>('/api/chat/memory', { signal }) });
}

export function useAddMemory() {
  return useMutation({ mutationFn: (text: string) => api.post<{ memory: Memory }>('/api/chat/memory', { text }), meta: { invalidates: [MEMORY_KEY] } });
}

export function useDeleteMemory() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(`/api/chat/memory/${encodeURIComponent(id)}`), meta: { invalidates: [MEMORY_KEY] } });
}

/** An admin switches memory on or off for the household (PUT /api/admin/memory). */
export function useSetMemoryEnabled() {
  return useMutation({ mutationFn: (enabled: boolean) => api.put<MemorySetting>('/api/admin/memory', { enabled }), meta: { invalidates: [MEMORY_KEY, MEMORY_SETTING_KEY] } });
}
