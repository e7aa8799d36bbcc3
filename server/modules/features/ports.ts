// What the features module asks of other modules (container.ts hands these in).
import type { DownloadsService } from '../downloads/service.js';
import type { ModelDetailsCache } from '../models/public.js';

export interface FeaturesPorts {
  /** The downloads module's queue: installing a feature enqueues its models and files. */
  downloads: DownloadsService;
  /** The models module's details cache (built later, so a function): what each installed model can do. */
  modelDetails(): ModelDetailsCache;
}
