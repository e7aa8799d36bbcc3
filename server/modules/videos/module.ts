// The video hub (issue 35): the YouTube channels the household follows (their public feeds, OPML,
// search through an admin's Invidious or Piped instance), PeerTube instances an admin lists, the
// video episodes of each member's podcasts, and the cache of licence-clean videos (vstream).
import { SourceCacheStore } from '../../platform/outside-sources/cache-store.js';
import { SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { defineModule, type Platform } from '../module.js';
import { videosTools } from './extensions.js';
import { HubService, VIDEOS_USER_AGENT } from './hub-service.js';
import type { VideosPorts } from './ports.js';
import { VideoSettingsService } from './settings-service.js';
import { VideosStore } from './store.js';
import { createVideoAdminRoutes, createVideoRoutes } from './videos-routes.js';
import { createVstreamRoutes } from './vstream-routes.js';
import { VstreamService } from './vstream-service.js';
import { FEED_TTL_MS, YoutubeService } from './youtube-service.js';
import { createYoutubeRoutes } from './youtube-routes.js';

export function createVideosModule(p: Platform, ports: VideosPorts) {
  const store = new VideosStore(p.db);
  const timeoutMs = p.tuning.todayFetchTimeoutMs ?? 15_000;
  // offline mode is read at each request (the fetcher asks the guard's live switch), never copied at start
  const fetcher = new SourceFetcher({
    guard: p.guard,
    store: new SourceCacheStore(p.db, 'videos_cache'),
    clock: p.clock,
    logger: p.logger,
    timeoutMs,
    userAgent: VIDEOS_USER_AGENT,
    label: 'Videos',
  });
  const settings = new VideoSettingsService({ settings: p.settings, guard: p.guard });
  const youtube = new YoutubeService({ store, fetcher, settings, clock: p.clock, baseUrl: p.config.youtubeFeedsUrl });
  let vstream: VstreamService | null = null;
  const hub = new HubService({ fetcher, guard: p.guard, settings, youtube, podcastVideos: ports.podcastVideos, cached: (actor) => vstream!.ready(actor), timeoutMs });
  vstream = new VstreamService({ store, hub, settings, downloads: ports.downloads, podcastVideos: ports.podcastVideos, clock: p.clock, logger: p.logger.child('videos'), offline: () => p.guard.offline, offlineWho: () => fetcher.offlineWho });
  return defineModule({
    name: 'videos',
    storageAreas: [{ key: 'vstream', label: 'Saved videos', folders: ['vstream'] }],
    routes: [
      { prefix: '/youtube', routes: createYoutubeRoutes(youtube) },
      { prefix: '/admin/videos', routes: createVideoAdminRoutes(settings, vstream) },
      { prefix: '/videos', routes: createVideoRoutes(hub) },
      { prefix: '/vstream', routes: createVstreamRoutes(vstream) },
    ],
    services: { youtube, videoHub: hub, vstream, videoSettings: settings },
    // the followed channels' feeds, asked again every 2 h with their validators (skipped offline)
    tasks: [{ name: 'videos.youtube-poll', everyMs: FEED_TTL_MS, run: () => youtube.pollAll() }],
    listeners: [
      { event: 'download.completed', run: (e) => vstream.onDownloaded(e) },
      { event: 'user.deleted', run: () => vstream.sweepOrphans() },
    ],
    extensions: { definitions: videosTools },
  });
}
