// The notifications API as hooks (TanStack Query, see api/query.ts). The unread count is polled
// every 30 s while the tab is visible and read again when it comes back into view; every change
// (mark read, approve) invalidates NOTIFICATIONS_KEY, so the bell and the panel agree.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { NotificationsResponse, UnreadCountResponse } from '../../../../server/modules/notifications/schema.js';

export const UNREAD_POLL_MS = 30_000;
export const NOTIFICATIONS_KEY = ['notifications'] as const;

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
