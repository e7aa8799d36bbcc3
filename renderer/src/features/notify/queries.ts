// Notification channels as hooks (TanStack Query, see api/query.ts): a member's channels and routes,
// a test send, the Telegram link code and its status; the admin's channel servers and the delivery log.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { NotifyAdminChannel, NotifyAdminChannels, NotifyChannelType, NotifyDeliveries, NotifyLinkCode, NotifyLinkStatus, NotifyMemberRoutes, NotifyRoutesBody, NotifyTestResponse } from '../../api/types';

const ROUTES_KEY = ['notify', 'routes'] as const;
const LINK_KEY = ['notify', 'link-status'] as const;
const ADMIN_KEY = ['notify', 'admin'] as const;
const DELIVERIES_KEY = ['notify', 'deliveries'] as const;

export function useNotifyRoutes() {
  return useQuery({ queryKey: ROUTES_KEY, queryFn: ({ signal }) => api.get<NotifyMemberRoutes>('/api/notify/routes', { signal }) });
}

export function useSaveRoutes() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<NotifyRoutesBody>) => api.put<NotifyMemberRoutes>('/api/notify/routes', body),
    onSuccess: (data) => client.setQueryData(ROUTES_KEY, data),
  });
}

export function useTestChannel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (type: NotifyChannelType) => api.post<NotifyTestResponse>(`/api/notify/channels/${type}/test`),
    onSettled: () => void client.invalidateQueries({ queryKey: DELIVERIES_KEY }),
  });
}

/** The link status, asked again every few seconds while a code waits to be sent to the bot. */
export function useLinkStatus(waiting: boolean) {
  return useQuery({ queryKey: LINK_KEY, queryFn: ({ signal }) => api.get<NotifyLinkStatus>('/api/notify/link-status', { signal }), refetchInterval: waiting ? 2000 : false });
}

export function useLinkCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<NotifyLinkCode>('/api/notify/link-code'),
    onSuccess: () => void client.invalidateQueries({ queryKey: LINK_KEY }),
  });
}

export function useUnlinkTelegram() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ deleted: boolean }>('/api/notify/telegram'),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: LINK_KEY });
      void client.invalidateQueries({ queryKey: ROUTES_KEY });
    },
  });
}

/** When the link status turns linked, the routes (which show the Telegram channel) are read again. */
export function useRefreshRoutes() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: ROUTES_KEY });
}

export function useAdminChannels() {
  return useQuery({ queryKey: ADMIN_KEY, queryFn: ({ signal }) => api.get<NotifyAdminChannels>('/api/admin/notify', { signal }) });
}

export function useDeliveries() {
  return useQuery({ queryKey: DELIVERIES_KEY, queryFn: ({ signal }) => api.get<NotifyDeliveries>('/api/admin/notify/deliveries', { signal }) });
}

export function useSaveChannel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ type, body }: { type: NotifyChannelType; body: Record<string, unknown> }) => api.put<{ channel: NotifyAdminChannel }>(`/api/admin/notify/${type}`, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ADMIN_KEY });
      void client.invalidateQueries({ queryKey: ROUTES_KEY });
    },
  });
}

export function useRemoveChannel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (type: NotifyChannelType) => api.delete<{ deleted: boolean }>(`/api/admin/notify/${type}`),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ADMIN_KEY });
      void client.invalidateQueries({ queryKey: ROUTES_KEY });
    },
  });
}
