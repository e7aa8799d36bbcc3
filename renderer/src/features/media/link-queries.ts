// The media server's link and connection calls as hooks (TanStack Query, api/query.ts): the
// caller's status and link, the PIN flow (polled every 2 s while it waits), and the admin's
// connection. Every write invalidates MEDIA_KEY (queries.ts: the one root of every media answer), so
// the status the nav and the Media page read and the page's feeds (which change with a link or a
// connection) are read again too. No answer here ever carries a token.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { MEDIA_KEY, useMediaStatus } from './queries';
import type { ConfigBody, ConfigView, DiscoverResponse, MeView, PinView } from '../../../../server/modules/media-server/schema.js';

/** The page where a member links their own Plex account. */
export const LINK_ACCOUNT_HREF = '/media/link';

export { MEDIA_KEY, useMediaStatus };

export const PIN_POLL_MS = 2_000;
const ME_KEY = [...MEDIA_KEY, 'me'] as const;
const CONFIG_KEY = [...MEDIA_KEY, 'config'] as const;

export function useMediaMe(enabled = true) {
  return useQuery({ queryKey: ME_KEY, enabled, queryFn: ({ signal }) => api.get<MeView>('/api/mediaserver/me', { signal }) });
}

/** Starts a PIN flow: the code to show and the link page. */
export function useStartPin() {
  return useMutation({ mutationFn: () => api.post<PinView>('/api/mediaserver/auth/pin') });
}

/** Polls one PIN while it waits; stops once it is approved or expired. */
export function usePin(id: number | null) {
  return useQuery({
    queryKey: [...MEDIA_KEY, 'pin', id],
    queryFn: ({ signal }) => api.get<PinView>(`/api/mediaserver/auth/pin/${id}`, { signal }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'waiting' ? false : PIN_POLL_MS),
    refetchOnWindowFocus: false,
    retry: false, // the next poll is the retry
    staleTime: 0,
  });
}

export function useLinkAccount() {
  return useMutation({ mutationFn: (pinId: number) => api.post<MeView>('/api/mediaserver/me/link', { pinId }), meta: { invalidates: [MEDIA_KEY] } });
}

export function useUnlink() {
  return useMutation({ mutationFn: () => api.delete<MeView>('/api/mediaserver/me'), meta: { invalidates: [MEDIA_KEY] } });
}

// ---- the admin's connection ----

export function useMediaConfig() {
  return useQuery({ queryKey: CONFIG_KEY, queryFn: ({ signal }) => api.get<ConfigView>('/api/mediaserver/config', { signal }) });
}

export function useSaveMediaConfig() {
  return useMutation({ mutationFn: (body: ConfigBody) => api.post<ConfigView>('/api/mediaserver/config', body), meta: { invalidates: [MEDIA_KEY] } });
}

export function useDiscoverServers() {
  return useMutation({ mutationFn: (pinId: number | undefined) => api.post<DiscoverResponse>('/api/mediaserver/auth/discover', pinId === undefined ? {} : { pinId }) });
}
