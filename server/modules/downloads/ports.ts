// What the downloads module asks of other modules (container.ts hands these in).
import type { DownloadJob } from './schema.js';

export interface DownloadsPorts {
  /**
   * Request headers for one job's transfer (image generation's model hub adds its API key), asked
   * for at each attempt so a secret is never kept in a job's row; null for none.
   */
  headersFor(job: DownloadJob): Promise<Record<string, string> | null>;
}
