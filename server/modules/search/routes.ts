import { actorOf } from '../../http/auth.js';
import { defineRoutes } from '../../http/routes.js';
import { parse } from '../../http/validate.js';
import { SearchQuery, SearchResponse } from './schema.js';
import type { SearchService } from './service.js';

export function createSearchRoutes(search: SearchService) {
  return defineRoutes((r) => {
    r.get('/', { access: 'user', response: SearchResponse }, (req, res) => {
      const query = parse(SearchQuery, req.query);
      // the person typed on, or left: the providers stop working for this answer
      const left = new AbortController();
      res.on('close', () => left.abort());
      return search.search(actorOf(req), query, left.signal);
    });
  });
}
