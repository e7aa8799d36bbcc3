// The notifications API as hooks (TanStack Query, see api/query.ts). The unread count is polled
// every 30 s while the tab is visible and read again when it comes back into view; every change
// (mark read, approve) invalidates NOTIFICATIONS_KEY, so the bell and the panel agree.
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Notification, NotificationsResponse, UnreadCountResponse } from '../../../../server/modules/notifications/schema.js';
import type { ToolResponse } from '../../../../server/modules/tools/schema.js';
import { NOTIFICATIONS_KEY, TOOLS_KEY } from '../../api/query-keys';

export const UNREAD_POLL_MS = 30_000;
export { NOTIFICATIONS_KEY };

/** The unread count; the last one is kept through a failed poll (the next poll tries again). */
export function useUnreadCount(): number {
  const count = useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'unread-count'],
    queryFn: ({ signal }) => api.get<UnreadCountResponse>('/api/notifications/unread-count', { signal }),
    refetchInterval: UNREAD_POLL_MS,
    retry: false,
  });
  return count.data?.unreadCount ?? 0;
}

/** The latest notifications, read each time the panel opens. */
export function useNotifications() {
  return useQuery({
    queryKey: [...NOTIFICATIONS_KEY, 'list'],
    queryFn: ({ signal }) => api.get<NotificationsResponse>('/api/notifications', { signal }),
    staleTime: 0,
  });
}

const markRead = (id: string) => api.patch(`/api/notifications/${encodeURIComponent(id)}/read`, {});

/** Marks one notification read (Mark read, Dismiss). */
export function useMarkRead() {
  return useMutation({
    mutationFn: (n: Notification) => markRead(n.id),
    meta: { invalidates: [NOTIFICATIONS_KEY] },
  });
}

export function useMarkAllRead() {
  return useMutation({
    mutationFn: () => api.post('/api/notifications/read-all'),
    meta: { invalidates: [NOTIFICATIONS_KEY] },
  });
}

/** An admin approves an install request: the tool is switched on for everyone, the request marked read; answers the tool's name. */
export function useApproveRequest() {
  return useMutation({
    mutationFn: async ({ id, toolId }: { id: string; toolId: string }) => {
      const r = await api.put<ToolResponse>(`/api/tools/${encodeURIComponent(toolId)}/enabled`, { enabled: true });
      await markRead(id);
      return r.tool.name;
    },
    meta: { invalidates: [NOTIFICATIONS_KEY, TOOLS_KEY] },
  });
}

/** When the panel closes: the list and the count are read again (what was seen is now read). */
export function useNotificationsChanged(): () => void {
  const client = useQueryClient();
  return useCallback(() => void client.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }), [client]);
}
