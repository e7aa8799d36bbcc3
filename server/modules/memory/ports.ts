// What the memory module asks of other modules (container.ts hands these in).
import type { AvailabilityCheck } from '../tools/schema.js';

export interface MemoryPorts {
  /** The features module's chat readiness: the `remember` Extension needs a chat model. */
  chatReadiness: AvailabilityCheck;
}
