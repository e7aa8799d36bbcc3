import { z } from 'zod';

export const NOTIFICATIONS_LIMIT = 50;
export const MAX_PAYLOAD_BYTES = 16 * 1024;

export const NotificationType = z.enum(['install_request', 'install_complete', 'download_complete', 'system']);
export type NotificationType = z.infer<typeof NotificationType>;

export const Notification = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  type: NotificationType,
  payload: z.record(z.string(), z.unknown()),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationsResponse = z.object({ notifications: z.array(Notification), unreadCount: z.number().int() });
export type NotificationsResponse = z.infer<typeof NotificationsResponse>;
export const UnreadCountResponse = z.object({ unreadCount: z.number().int() });
export type UnreadCountResponse = z.infer<typeof UnreadCountResponse>;
export const NotificationResponse = z.object({ notification: Notification });
export const MarkAllReadResponse = z.object({ marked: z.number().int() });

export const NotificationIdParams = z.object({ id: z.string().min(1).max(64) });

export const CreateNotificationBody = z.object({
  type: NotificationType,
  userId: z.string().min(1).max(64).nullable().default(null),
  payload: z
    .record(z.string(), z.unknown())
    .default({})
    .refine((p) => JSON.stringify(p).length <= MAX_PAYLOAD_BYTES, `The payload is at most ${MAX_PAYLOAD_BYTES / 1024} KB.`),
});
export type CreateNotificationBody = z.infer<typeof CreateNotificationBody>;
