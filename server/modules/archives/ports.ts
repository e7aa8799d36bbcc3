// What the archives module asks of other modules (container.ts hands these in).
import type { UserActor } from '../../actor.js';
import type { Level } from '../content/schema.js';
import type { AvailabilityCheck } from '../tools/schema.js';

export interface ArchivesPorts {
  /** The features module's chat readiness: the archive search Extension needs a chat model. */
  chatReadiness: AvailabilityCheck;
  /** The tools module: whether an Extension is on (unified search asks before searching archives). */
  isEnabled(toolId: string): Promise<boolean>;
  /** The content module: the member's Archives level (an archive above it is hidden from them). */
  archivesLevel(actor: UserActor): Promise<Level>;
}
