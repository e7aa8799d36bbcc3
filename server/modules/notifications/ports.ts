// What the notifications module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';

export interface NotificationsPorts {
  /** The auth module's members: a notification goes to a member who exists. */
  users: AuthService;
}
