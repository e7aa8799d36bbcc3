// The library's routes under /api/mediaserver: feeds, one title, find, the watchlist and the
// member's own watched state (rules 2, 4, 5, 7). Every route is for a signed-in member; what is
// personal is always the caller's own (the service reads it with their own token).
import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import type { MediaLibraryService } from './library-service.js';
import {
  FeedQuery,
  FeedResponse,
  FindQuery,
  FindResponse,
  HubsResponse,
  MetaResponse,
  ProgressBody,
  RatingKeyParams,
  SessionsResponse,
  WatchedBody,
  WatchlistBody,
  WatchlistResponse,
  WatchStateResponse,
} from './schema.js';

export function createMediaLibraryRoutes(library: MediaLibraryService) {
  return defineRoutes((r) => {
    r.get('/recent', { access: 'user', response: FeedResponse }, (req) => library.recent(actorOf(req), parse(FeedQuery, req.query).limit));
    r.get('/ondeck', { access: 'user', response: FeedResponse }, (req) => library.onDeck(actorOf(req), parse(FeedQuery, req.query).limit));
    r.get('/hubs', { access: 'user', response: HubsResponse }, (req) => library.hubs(actorOf(req), parse(FeedQuery, req.query).limit));
    r.get('/sessions', { access: 'user', response: SessionsResponse }, (req) => library.sessions(actorOf(req)));
    r.get('/find', { access: 'user', response: FindResponse }, (req) => library.find(actorOf(req), parse(FindQuery, req.query)));
    r.get('/meta/:ratingKey', { access: 'user', response: MetaResponse }, (req) => library.meta(actorOf(req), parse(RatingKeyParams, req.params).ratingKey));
    r.post('/meta/:ratingKey/watched', { access: 'user', response: WatchStateResponse }, (req) =>
      library.setWatched(actorOf(req), parse(RatingKeyParams, req.params).ratingKey, parse(WatchedBody, req.body).watched),
    );
    r.post('/meta/:ratingKey/progress', { access: 'user', response: WatchStateResponse }, (req) =>
      library.setProgress(actorOf(req), parse(RatingKeyParams, req.params).ratingKey, parse(ProgressBody, req.body)),
    );
    r.post('/watchlist', { access: 'user', response: WatchlistResponse }, (req) => library.watchlist(actorOf(req), parse(WatchlistBody, req.body)));
  });
}
