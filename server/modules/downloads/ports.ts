// What the downloads module asks of other modules (container.ts hands these in).
import type { ModelPulls } from '../models/public.js';
import type { ConditionNotifications } from '../notifications/public.js';
import type { DownloadJob } from './schema.js';

export interface DownloadsPorts {
  /**
   * Request headers for one job's transfer (image generation's model hub adds its API key), asked
   * for at each attempt so a secret is never kept in a job's row; null for none.
   */
  headersFor(job: DownloadJob): Promise<Record<string, string> | null>;
  /** The models module's pulls (built after this module, so asked for when a model job runs). */
  pulls(): ModelPulls;
  /** The notifications module's conditions: the admins hear of failed downloads until none is left. */
  conditions: ConditionNotifications;
}
