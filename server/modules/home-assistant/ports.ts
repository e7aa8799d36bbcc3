// What the home-assistant module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';
import type { ContentService } from '../content/service.js';
import type { NotificationsService } from '../notifications/service.js';
import type { AvailabilityCheck } from '../tools/schema.js';

export interface HomeAssistantPorts {
  /** The auth module's members: rights belong to members who exist; the admin page lists them. */
  users: Pick<AuthService, 'getUser' | 'listProfiles'>;
  /** The content module: a member at the `child` level is denied guarded entities unless an admin says otherwise. */
  content: Pick<ContentService, 'effective'>;
  /** Whether chat can answer: the chat tool needs it. */
  chatReadiness: AvailabilityCheck;
  /** The notifications module: camera events are told to the members an admin chose. */
  notifications: Pick<NotificationsService, 'notify'>;
}
