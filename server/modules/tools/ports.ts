// What the tools module asks of other modules (container.ts hands these in).
import type { NotificationsService } from '../notifications/service.js';
import type { ToolDefinition } from './schema.js';

export interface ToolsPorts {
  /** Admins hear about an install request through the notifications module. */
  notifications: NotificationsService;
  /** Tests' extra Extensions (for their stand-in chat tools). */
  extraDefinitions?: ToolDefinition[];
}
