// What the video hub asks of other modules (container.ts hands these in).
import type { DownloadsService } from '../downloads/service.js';
import type { PodcastVideosService } from '../podcasts/video-episodes-service.js';

export interface VideosPorts {
  /** The podcasts module's read port: the video episodes of the shows a member follows. */
  podcastVideos: Pick<PodcastVideosService, 'recent' | 'episode'>;
  /** The durable download queue: a cached video is fetched through it. */
  downloads: Pick<DownloadsService, 'enqueue' | 'progress' | 'destinationPath'>;
}
