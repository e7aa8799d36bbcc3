// The seams between the inventory's parts, so each is built and tested on its own and the
// container wires them: the devices service (CRUD, files, warranties) starts a web lookup on save
// and a manual extraction on a PDF upload; identify, Ask and the lookup ask the models module for
// the models they use.
import type { Actor, UserActor } from '../../actor.js';
import type { LookupStatus } from './schema.js';

/** The web lookup (lookup-service.ts). */
export interface DeviceLookup {
  /**
   * Decides and records the device's lookupStatus: pending (and the lookup runs in the background,
   * never awaited by the request), or skipped with the reason (no brand or model, no web search
   * configured, offline mode). Returns the status recorded.
   */
  start(actor: Actor, deviceId: string): Promise<LookupStatus>;
}

/** Manual text extraction (lookup-service.ts / manual-service.ts): an uploaded PDF fills manualText when the device has none. */
export interface ManualExtraction {
  /** Runs in the background; never throws into the upload. */
  fromUploadedFile(deviceId: string, fileId: string): void;
}

/** The models the inventory's AI steps use (the models module answers). */
export interface InventoryModelPicker {
  /**
   * The text model (reconcile, Ask, search guidance): the household chat model this member may use.
   * Throws 503 model_runtime_unavailable when the runtime is down, 409 no_chat_model without one.
   */
  textModel(actor: UserActor): Promise<string>;
  /** An installed model that can see pictures (the Home inventory feature's model first), or null when there is none. */
  visionModel(): Promise<string | null>;
}
