// The shows module (issue 35): TV discovery from TVmaze, each member's private watchlist, ticked
// episodes and schedule, and the household's Plex badge.
import { SourceCacheStore } from '../../platform/outside-sources/cache-store.js';
import { outboundSourcesOf, SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { defineModule, type Platform } from '../module.js';
import { showTools } from './extensions.js';
import type { ShowsPorts } from './ports.js';
import { createShowRoutes } from './routes.js';
import { ShowsService, SHOWS_USER_AGENT } from './service.js';
import { ShowsStore } from './store.js';

export function createShowsModule(p: Platform, ports: ShowsPorts) {
  const fetcher = new SourceFetcher({
    guard: p.guard,
    store: new SourceCacheStore(p.db, 'shows_cache'),
    clock: p.clock,
    logger: p.logger,
    timeoutMs: p.tuning.todayFetchTimeoutMs,
    userAgent: SHOWS_USER_AGENT,
    label: 'Shows',
  });
  const shows = new ShowsService({ ...ports, fetcher, store: new ShowsStore(p.db), clock: p.clock, tvmazeUrl: p.config.tvmazeUrl });
  return defineModule({
    name: 'shows',
    routes: [{ prefix: '/shows', routes: createShowRoutes(shows) }],
    services: { shows },
    extensions: { definitions: showTools },
    outboundSources: outboundSourcesOf(fetcher, { 'tvmaze-show': 'TV guide (TVmaze)', 'tvmaze-search': 'TV guide (TVmaze)', 'tvmaze-image': 'TV guide (TVmaze)' }),
    tasks: [{ name: 'shows.prune', everyMs: 24 * 60 * 60_000, run: () => shows.prune() }],
  });
}
