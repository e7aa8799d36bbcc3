// What the Today module asks of other modules (container.ts hands these in).
import type { AvailabilityCheck } from '../tools/schema.js';

export interface TodayPorts {
  /** Whether chat can answer (the model runtime with the chosen chat model): the chat tools need it. */
  chatReadiness: AvailabilityCheck;
}
