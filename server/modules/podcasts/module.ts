// The podcasts module (issue 35): iTunes search, each member's private subscriptions, their episodes,
// the inbox and listening progress.
import { whenOnline } from '../../platform/offline-switch.js';
import { SourceCacheStore } from '../../platform/outside-sources/cache-store.js';
import { outboundSourcesOf, SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { defineModule, type Platform } from '../module.js';
import { createPodcastRoutes } from './routes.js';
import { PodcastsService, USER_AGENT } from './service.js';
import { PodcastsStore } from './store.js';

export const POLL_MS = 60 * 60_000;

export function createPodcastsModule(p: Platform) {
  // covers: fetched once, kept a month, served by Hearth
  const covers = new SourceFetcher({ guard: p.guard, store: new SourceCacheStore(p.db, 'podcasts_cache'), clock: p.clock, logger: p.logger, timeoutMs: p.tuning.todayFetchTimeoutMs, userAgent: USER_AGENT, label: 'Podcasts' });
  const podcasts = new PodcastsService({ store: new PodcastsStore(p.db), guard: p.guard, clock: p.clock, itunesUrl: p.config.itunesUrl, timeoutMs: p.tuning.todayFetchTimeoutMs ?? 15_000, covers });
  return defineModule({
    name: 'podcasts',
    routes: [{ prefix: '/podcasts', routes: createPodcastRoutes(podcasts) }],
    services: { podcasts },
    outboundSources: outboundSourcesOf(covers, { 'podcast-cover': 'Podcast covers' }),
    // every followed show's feed asked hourly, conditionally (nothing is fetched in offline mode)
    tasks: [{ name: 'podcasts.poll', everyMs: POLL_MS, run: whenOnline(p.offline, async () => void (await podcasts.pollAll())) }],
  });
}
