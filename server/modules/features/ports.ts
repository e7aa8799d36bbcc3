// What the features module asks of other modules (container.ts hands these in).
import type { DownloadsService } from '../downloads/service.js';
import type { ModelDetailsCache } from '../models/public.js';

export interface FeaturesPorts {
  /** The downloads module's queue: installing a feature enqueues its models and files. */
  downloads: DownloadsService;
  /** The models module's details cache (built later, so a function): what each installed model can do. */
  modelDetails(): ModelDetailsCache;
  /** What the last benchmark measured of a chat model on this computer (the fit hint), null when not measured. */
  chatSpeed(model: string): Promise<{ wordsPerSecond: number; tokensPerSecond: number; measuredAt: string } | null>;
}
