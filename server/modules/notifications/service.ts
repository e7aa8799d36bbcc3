// Notifications and their privacy boundary: a member sees their own rows; an admin also sees the
// admin-targeted rows (user_id null). Misses and rows the caller may not see are both 404.
import { randomUUID } from 'node:crypto';
import { assertAdmin, isAdmin, type Actor, type UserActor } from '../../actor.js';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { EventBus } from '../../platform/event-bus.js';
import type { AuthService } from '../auth/service.js';
import { NOTIFICATIONS_LIMIT, type CreateNotificationBody, type Notification, type NotificationType } from './schema.js';
import type { Audience, NotificationsStore } from './store.js';

export interface NotificationsDeps {
  store: NotificationsStore;
  clock: Clock;
  auth: AuthService;
  /** Each written notification is told on the bus (notification.created): the notify module sends it on. */
  bus: EventBus;
}

const audienceOf = (actor: UserActor): Audience => ({ userId: actor.id, isAdmin: isAdmin(actor) });

export class NotificationsService {
  constructor(private readonly deps: NotificationsDeps) {}

  async list(actor: UserActor): Promise<{ notifications: Notification[]; unreadCount: number }> {
    const a = audienceOf(actor);
    const [notifications, unreadCount] = await Promise.all([this.deps.store.listVisible(a, NOTIFICATIONS_LIMIT), this.deps.store.countUnread(a)]);
    return { notifications, unreadCount };
  }

  unreadCount(actor: UserActor): Promise<number> {
    return this.deps.store.countUnread(audienceOf(actor));
  }

  async markRead(actor: UserActor, id: string): Promise<Notification> {
    const n = await this.deps.store.markRead(audienceOf(actor), id, this.deps.clock.now().toISOString());
    if (!n) throw new NotFoundError('That notification does not exist.');
    return n;
  }

  markAllRead(actor: UserActor): Promise<number> {
    return this.deps.store.markAllRead(audienceOf(actor), this.deps.clock.now().toISOString());
  }

  /** Admin POST: any type, to a member or (userId null) to the admins. */
  async create(actor: Actor, body: CreateNotificationBody): Promise<Notification> {
    assertAdmin(actor);
    if (body.userId !== null && !(await this.deps.auth.getUser(body.userId))) throw new NotFoundError('That household member does not exist.');
    const id = await this.notify(body);
    return { id, userId: body.userId, type: body.type, payload: body.payload, readAt: null, createdAt: this.deps.clock.now().toISOString() };
  }

  /** For other modules (app-store requests, reader change alerts). */
  async notify(n: { userId: string | null; type: NotificationType; payload: Record<string, unknown> }): Promise<string> {
    const id = randomUUID();
    await this.deps.store.insert({ id, userId: n.userId, type: n.type, payload: n.payload, createdAt: this.deps.clock.now().toISOString() });
    this.deps.bus.emit('notification.created', { id, userId: n.userId, type: n.type, payload: n.payload });
    return id;
  }

  findUnreadInstallRequest(requestedBy: string, toolId: string): Promise<string | null> {
    return this.deps.store.findUnreadInstallRequest(requestedBy, toolId);
  }
}
