// /api/shows: TVmaze search, a show's guide with the member's ticks and the Plex badge, the
// member's watchlist and schedule, and posters served by Hearth.
import { actorOf } from '../../http/auth.js';
import { bytes, defineRoutes, NO_CONTENT } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { EpisodeParams, ScheduleResponse, SearchQuery, SearchResponse, ShowIdParams, ShowResponse, WatchedBody, WatchedResponse, WatchlistBody, WatchlistEntryResponse, WatchlistResponse } from './schema.js';
import type { ShowsService } from './service.js';

export function createShowRoutes(shows: ShowsService) {
  return defineRoutes((r) => {
    r.get('/search', { access: 'user', response: SearchResponse }, (req) => shows.search(actorOf(req), parse(SearchQuery, req.query).q));
    r.get('/schedule', { access: 'user', response: ScheduleResponse }, (req) => shows.schedule(actorOf(req)));
    r.get('/watchlist', { access: 'user', response: WatchlistResponse }, (req) => shows.watchlist(actorOf(req)));
    r.post('/watchlist', { access: 'user', response: WatchlistEntryResponse }, async (req, res) => {
      const show = await shows.addToWatchlist(actorOf(req), parse(WatchlistBody, req.body).tvmazeId);
      res.status(201);
      return { show };
    });
    r.delete('/watchlist/:id', { access: 'user', response: NO_CONTENT }, async (req) => {
      await shows.removeFromWatchlist(actorOf(req), parse(ShowIdParams, req.params).id);
    });
    r.get('/:id', { access: 'user', response: ShowResponse }, (req) => shows.show(actorOf(req), parse(ShowIdParams, req.params).id));
    r.get('/:id/image', { access: 'user', response: bytes('the show’s poster (JPEG, PNG or WebP), fetched once by Hearth; 404 JSON when the guide has none') }, async (req, res) => {
      const image = await shows.image(actorOf(req), parse(ShowIdParams, req.params).id);
      res.set({ 'Content-Type': image.type, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' }).send(image.body);
    });
    r.put('/:id/episodes/:episodeId', { access: 'user', response: WatchedResponse }, async (req) => {
      const p = parse(EpisodeParams, req.params);
      return shows.setWatched(actorOf(req), p.id, p.episodeId, parse(WatchedBody, req.body).watched);
    });
  });
}
