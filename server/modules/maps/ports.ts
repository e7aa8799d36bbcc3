// What the maps module asks of other modules (container.ts hands these in).
import type { DownloadsService } from '../downloads/service.js';
import type { AvailabilityCheck } from '../tools/schema.js';

export interface MapsPorts {
  /** The downloads module's queue: region files are fetched through it. */
  downloads: DownloadsService;
  /** The features module's chat readiness: the maps chat tool needs a chat model. */
  chatReadiness: AvailabilityCheck;
}
