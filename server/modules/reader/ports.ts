// What the reader module asks of other modules (container.ts hands these in).
import type { NotificationsService } from '../notifications/service.js';
import type { AvailabilityCheck } from '../tools/schema.js';
import type { ReaderAiServiceDeps } from './ai-service.js';
import type { CaptureEngine } from './capture/types.js';

export interface ReaderPorts {
  /** A member hears when a watched page changed. */
  notifications: NotificationsService;
  /** The features module's chosen chat model and its readiness (summaries, ask). */
  models: ReaderAiServiceDeps['models'];
  /** The features module's chat readiness: the reader search Extension needs a chat model. */
  chatReadiness: AvailabilityCheck;
  /** The tools module: whether an Extension is on (unified search asks before searching the reader). */
  isEnabled(toolId: string): Promise<boolean>;
  /** A test's stand-in capture engine (default: the shared Chromium, launched on the first capture). */
  captureEngine?: CaptureEngine;
}
