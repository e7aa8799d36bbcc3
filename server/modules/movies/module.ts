// The films module (issue 35): film search (Plex's catalogue for a linked member, TMDB when an
// admin added a token, else the household's Plex library), one film with the Plex badge, and each
// member's private film watchlist, copied to their own Plex watchlist when they linked it.
import { SourceCacheStore } from '../../platform/outside-sources/cache-store.js';
import { SourceFetcher } from '../../platform/outside-sources/fetcher.js';
import { defineModule, type Platform } from '../module.js';
import { movieTools } from './extensions.js';
import type { MoviesPorts } from './ports.js';
import { createMovieRoutes } from './routes.js';
import { MOVIES_USER_AGENT, MoviesService } from './service.js';
import { MoviesStore } from './store.js';

export function createMoviesModule(p: Platform, ports: MoviesPorts) {
  const offline = () => p.guard.offline;
  const fetcher = new SourceFetcher({
    guard: p.guard,
    store: new SourceCacheStore(p.db, 'movies_cache'),
    clock: p.clock,
    logger: p.logger,
    timeoutMs: p.tuning.todayFetchTimeoutMs,
    userAgent: MOVIES_USER_AGENT,
    label: 'Films',
  });
  const movies = new MoviesService({ ...ports, fetcher, store: new MoviesStore(p.db), settings: p.settings, clock: p.clock, logger: p.logger.child('movies'), tmdbUrl: p.config.tmdbUrl, tmdbImageUrl: p.config.tmdbImageUrl, offline });
  return defineModule({
    name: 'movies',
    routes: [{ prefix: '/movies', routes: createMovieRoutes(movies) }],
    services: { movies },
    tasks: [{ name: 'movies.prune', everyMs: 24 * 60 * 60_000, run: () => movies.prune() }],
    extensions: { definitions: movieTools },
  });
}
