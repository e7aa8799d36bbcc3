// What the podcasts module asks of other modules (container.ts hands these in).
import type { DownloadsService } from '../downloads/service.js';

export interface PodcastsPorts {
  /** The household's durable download queue: every offline copy of an episode is fetched through it. */
  downloads: Pick<DownloadsService, 'enqueue' | 'progress' | 'destinationPath' | 'cancel'>;
}
