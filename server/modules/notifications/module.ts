// The notifications module: each member's notifications; other modules send through the service.
import { defineModule, type Platform } from '../module.js';
import { CONDITION_SWEEP_MS, ConditionNotifications } from './conditions.js';
import type { NotificationsPorts } from './ports.js';
import { createNotificationRoutes } from './routes.js';
import { NotificationsService } from './service.js';
import { NotificationsStore } from './store.js';

export function createNotificationsModule(p: Platform, ports: NotificationsPorts) {
  const store = new NotificationsStore(p.db);
  const notifications = new NotificationsService({ store, clock: p.clock, auth: ports.users, bus: p.bus });
  // notifications that describe a condition: one per key, removed once the condition ends (the
  // modules that own a condition watch it: setup's models left out, the downloads that failed)
  const conditions = new ConditionNotifications({ store, clock: p.clock, logger: p.logger.child('conditions'), bus: p.bus });
  return defineModule({
    name: 'notifications',
    routes: [{ prefix: '/notifications', routes: createNotificationRoutes(notifications) }],
    services: { notifications, conditions },
    tasks: [{ name: 'notifications.conditions', everyMs: CONDITION_SWEEP_MS, run: () => conditions.sweep() }],
  });
}
