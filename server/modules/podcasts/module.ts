// The podcasts module (issue 35): iTunes search, each member's private subscriptions, their episodes,
// the inbox, listening progress, and offline copies of episodes through the household's download queue.
import { whenOnline } from '../../platform/offline-switch.js';
import { SourceCacheStore } from '../../platform/outside-sources/cache-store.js';
import { outboundSourcesOf, SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { defineModule, type Platform } from '../module.js';
import { COPIES_FOLDER, EpisodeCopiesService } from './copies-service.js';
import type { PodcastsPorts } from './ports.js';
import { podcastTools } from './extensions.js';
import { PodcastIndex } from './podcast-index.js';
import { createPodcastAdminRoutes, createPodcastRoutes } from './routes.js';
import { PodcastsService, USER_AGENT } from './service.js';
import { PodcastsStore } from './store.js';
import { createPodcastVideos } from './video-episodes-service.js';

export const POLL_MS = 60 * 60_000;
/** A feed failing poll after poll is asked less and less often, at last once a day. */
const FEED_MAX_BACKOFF_MS = 24 * 60 * 60_000;
const MAX_FEED_BYTES = 10 * 1024 * 1024;

export function createPodcastsModule(p: Platform, ports: PodcastsPorts) {
  const store = new PodcastsStore(p.db);
  const cache = new SourceCacheStore(p.db, 'podcasts_cache');
  // offline mode is read at each request (the fetcher asks the guard's live switch), never kept here
  const fetcherDeps = { guard: p.guard, store: cache, clock: p.clock, logger: p.logger, timeoutMs: p.tuning.todayFetchTimeoutMs, userAgent: USER_AGENT, label: 'Podcasts' };
  // covers: fetched once, kept a month, served by Hearth
  const covers = new SourceFetcher(fetcherDeps);
  // feeds: polled hourly, conditionally, backing off (up to a day) while one keeps failing
  const feeds = new SourceFetcher({ ...fetcherDeps, maxBytes: MAX_FEED_BYTES, maxBackoffMs: FEED_MAX_BACKOFF_MS });
  const copies = new EpisodeCopiesService({ store, downloads: ports.downloads, guard: p.guard, clock: p.clock, logger: p.logger.child('podcasts') });
  const timeoutMs = p.tuning.todayFetchTimeoutMs ?? 15_000;
  // Podcast Index: searched instead of Apple once an admin adds the household's key (kept in app settings)
  const index = new PodcastIndex({ settings: p.settings, guard: p.guard, clock: p.clock, baseUrl: p.config.podcastIndexUrl, userAgent: USER_AGENT, timeoutMs });
  const podcasts = new PodcastsService({ store, guard: p.guard, clock: p.clock, itunesUrl: p.config.itunesUrl, timeoutMs, covers, feeds, copies, index, logger: p.logger.child('podcasts') });
  return defineModule({
    name: 'podcasts',
    storageAreas: [{ key: 'podcasts', label: 'Podcast episodes', folders: [COPIES_FOLDER] }],
    routes: [
      { prefix: '/podcasts', routes: createPodcastRoutes(podcasts, copies) },
      { prefix: '/admin/podcasts', routes: createPodcastAdminRoutes(podcasts) },
    ],
    services: { podcasts, podcastCopies: copies, podcastVideos: createPodcastVideos(p.db) },
    extensions: { definitions: podcastTools },
    outboundSources: outboundSourcesOf(covers, { 'podcast-cover': 'Podcast covers', 'podcast-feed': 'Podcast feeds' }),
    // every followed show's feed asked hourly, conditionally (nothing is fetched in offline mode)
    tasks: [{ name: 'podcasts.poll', everyMs: POLL_MS, run: whenOnline(p.offline, async () => void (await podcasts.pollAll())) }],
    // an offline copy the queue finished is ready to play
    listeners: [{ event: 'download.completed', run: (e) => copies.onDownloaded(e) }],
    start: () => copies.start(),
  });
}
