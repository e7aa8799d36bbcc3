// The notifications module: each member's notifications; other modules send through the service.
import { defineModule, type Platform } from '../module.js';
import type { NotificationsPorts } from './ports.js';
import { createNotificationRoutes } from './routes.js';
import { NotificationsService } from './service.js';
import { NotificationsStore } from './store.js';

export function createNotificationsModule(p: Platform, ports: NotificationsPorts) {
  const notifications = new NotificationsService({ store: new NotificationsStore(p.db), clock: p.clock, auth: ports.users });
  return defineModule({
    name: 'notifications',
    routes: [{ prefix: '/notifications', routes: createNotificationRoutes(notifications) }],
    services: { notifications },
  });
}
