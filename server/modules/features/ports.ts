// What the features module asks of other modules (container.ts hands these in).
import type { DownloadsService } from '../downloads/service.js';

export interface FeaturesPorts {
  /** The downloads module's queue: installing a feature enqueues its models and files. */
  downloads: DownloadsService;
}
