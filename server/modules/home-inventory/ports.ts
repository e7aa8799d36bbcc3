// What the home inventory module asks of other modules (container.ts hands these in).
import type { AuthService } from '../auth/service.js';
import type { NotificationsService } from '../notifications/service.js';
import type { AvailabilityCheck } from '../tools/schema.js';
import type { InventoryModelPicker } from './parts.js';

export interface HomeInventoryPorts {
  /** The auth module's members: a device's owner is a member who exists. */
  users: Pick<AuthService, 'getUser'>;
  /** Warranty reminders go out as notifications. */
  notifications: NotificationsService;
  /** The models module: the text and vision models identify, Ask and the lookup use. */
  models: InventoryModelPicker;
  /** The features module's chosen chat model, for the lookup's background work. */
  backgroundTextModel(): Promise<string | null>;
  /** The features module's chat readiness: the inventory Extensions need a chat model. */
  chatReadiness: AvailabilityCheck;
  /** The tools module: whether an Extension is on (unified search asks before searching devices). */
  isEnabled(toolId: string): Promise<boolean>;
}
