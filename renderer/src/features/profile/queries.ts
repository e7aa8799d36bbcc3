// The caller's content settings and adult state as hooks (TanStack Query, see api/query.ts):
// turning adult content on or off invalidates both, so the profile shows what the server has.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { CONTENT_KEY as CONTENT_ROOT } from '../../api/query-keys';
import type { ContentResponse, PrivacyResponse } from '../../api/types';

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
