// What the home-layout module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';

export interface HomeLayoutPorts {
  /** The auth module's members: an admin sets the layout of a member who exists. */
  users: AuthService;
}
