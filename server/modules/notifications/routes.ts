import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import {
  CreateNotificationBody,
  MarkAllReadResponse,
  NotificationIdParams,
  NotificationResponse,
  NotificationsResponse,
  UnreadCountResponse,
} from './schema.js';
import type { NotificationsService } from './service.js';

export function createNotificationRoutes(notifications: NotificationsService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: NotificationsResponse }, (req) => notifications.list(actorOf(req)));

    r.get('/unread-count', { access: 'user', response: UnreadCountResponse }, async (req) => ({ unreadCount: await notifications.unreadCount(actorOf(req)) }));

    r.patch('/:id/read', { access: 'user', response: NotificationResponse }, async (req) => ({
      notification: await notifications.markRead(actorOf(req), parse(NotificationIdParams, req.params).id),
    }));

    r.post('/read-all', { access: 'user', response: MarkAllReadResponse }, async (req) => ({ marked: await notifications.markAllRead(actorOf(req)) }));

    r.post('/', { access: 'admin', response: NotificationResponse }, async (req, res) => {
      const notification = await notifications.create(actorOf(req), parse(CreateNotificationBody, req.body));
      res.status(201);
      return { notification };
    });
  });
}
