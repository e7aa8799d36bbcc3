// What the home-layout module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';

export interface HomeLayoutPorts {
  /** The auth module's members: an admin sets the layout of a member who exists. */
  users: AuthService;
  /**
   * The Today module: whether the household's Today is set up (its place saved). Until an admin sets
   * a default layout, the shipped one then starts with the Today widgets.
   */
  todaySetUp(): Promise<boolean>;
}
