// /api/movies: film search, one film with the Plex badge, the member's watchlist, posters served by
// Hearth, and the admin's TMDB token (set or cleared, never answered).
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { MovieIdParams, MovieResponse, SearchQuery, SearchResponse, TmdbStatusResponse, TmdbTokenBody, WatchlistAddResponse, WatchlistBody, WatchlistResponse } from './schema.js';
import type { MoviesService } from './service.js';

export function createMovieRoutes(movies: MoviesService) {
  return defineRoutes((r) => {
    r.get('/search', { access: 'user', response: SearchResponse }, (req) => movies.search(actorOf(req), parse(SearchQuery, req.query).q));
    r.get('/watchlist', { access: 'user', response: WatchlistResponse }, (req) => movies.watchlist(actorOf(req)));
    r.post('/watchlist', { access: 'user', response: WatchlistAddResponse }, async (req, res) => {
      const added = await movies.addToWatchlist(actorOf(req), parse(WatchlistBody, req.body).id);
      res.status(201);
      return added;
    });
    r.post('/watchlist/:id/plex', { access: 'user', response: WatchlistAddResponse }, (req) => movies.copyAgain(actorOf(req), parse(MovieIdParams, req.params).id));
    r.delete('/watchlist/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await movies.removeFromWatchlist(actorOf(req), parse(MovieIdParams, req.params).id);
    });
    r.get('/admin/tmdb', { access: 'admin', response: TmdbStatusResponse }, (req) => movies.tmdbStatus(actorOf(req)));
    r.put('/admin/tmdb', { access: 'admin', response: TmdbStatusResponse }, (req) => movies.setTmdbToken(actorOf(req), parse(TmdbTokenBody, req.body).token));
    r.delete('/admin/tmdb', { access: 'admin', response: NO_CONTENT }, async (req) => {
      await movies.clearTmdbToken(actorOf(req));
    });
    r.get('/:id', { access: 'user', response: MovieResponse }, (req) => movies.movie(actorOf(req), parse(MovieIdParams, req.params).id));
    r.get('/:id/image', { access: 'user', response: bytes('the film’s poster (JPEG, PNG or WebP), fetched once by Hearth; 404 JSON when there is none') }, async (req, res) => {
      const image = await movies.image(actorOf(req), parse(MovieIdParams, req.params).id);
      res.set({ 'Content-Type': image.type, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(image.body);
    });
  });
}
