// What the notify module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';

export interface NotifyPorts {
  /** The auth module's members: an admin-targeted notification goes to every admin's routes. */
  users: Pick<AuthService, 'listProfiles'>;
}
