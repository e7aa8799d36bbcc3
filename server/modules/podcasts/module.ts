// The podcasts module (issue 35): iTunes search, each member's private subscriptions, their episodes,
// the inbox and listening progress.
import { defineModule, type Platform } from '../module.js';
import { createPodcastRoutes } from './routes.js';
import { PodcastsService } from './service.js';
import { PodcastsStore } from './store.js';

export const POLL_MS = 60 * 60_000;

export function createPodcastsModule(p: Platform) {
  const podcasts = new PodcastsService({ store: new PodcastsStore(p.db), guard: p.guard, clock: p.clock, itunesUrl: p.config.itunesUrl, timeoutMs: p.tuning.todayFetchTimeoutMs ?? 15_000 });
  return defineModule({
    name: 'podcasts',
    routes: [{ prefix: '/podcasts', routes: createPodcastRoutes(podcasts) }],
    services: { podcasts },
    // every followed show's feed asked hourly, conditionally (nothing is fetched in offline mode)
    tasks: p.config.offline ? [] : [{ name: 'podcasts.poll', everyMs: POLL_MS, run: async () => void (await podcasts.pollAll()) }],
  });
}
