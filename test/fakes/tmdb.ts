// A stand-in for TMDB's API v3 (reference/media-hubs.md §3.2, "fake-tmdb"): `/3/search/movie?query=`
// (`{page, results[], total_pages, total_results}`, by words, best first; page 501 → 400 code 22),
// `/3/movie/:id?append_to_response=external_ids`, errors in TMDB's shape `{status_code,
// status_message, success:false}` (401 code 7 without the right Bearer token, 404 code 34), posters
// at /t/p/w342/<file> on the fake's own origin (the image host). Modes: 'ok', 'garbage' (an HTML page
// with a 200), 'slow' (no answer), 'unauthorized' (401 code 7 to everything, as for a revoked
// token), 'busy' (429 code 25). Down is `down()` (the port stops listening). Every request is
// recorded, with the Authorization header it carried.
import { TINY_JPEG } from './images.js';
import { sendJson, startFakeHttp, type FakeHttp } from './today-http.js';

export const TMDB_POSTER = TINY_JPEG;
/** The API Read Access Token the fake takes (a v4 token is a JWT: it starts with eyJ). */
export const TMDB_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJmYWtlLXRtZGIifQ.fake-signature-for-tests';

export interface FakeTmdb extends FakeHttp {
  mode: 'ok' | 'garbage' | 'slow' | 'unauthorized' | 'busy';
  /** The Authorization header of every request, in order. */
  authorizations: Array<string | undefined>;
  /** Where the posters are: the TMDB_IMAGE_BASE of a test. */
  readonly imageUrl: string;
  reset(): void;
}

interface FakeMovie {
  id: number;
  title: string;
  date: string;
  imdb: string | null;
  poster: string | null;
  overview: string;
  runtime: number;
  genres: string[];
}

/** The Night Harbor has the ids of the media-server fake's film 101 (the household's Plex has it); Starfall Protocol is in Plex's catalogue only. */
export const MOVIES: FakeMovie[] = [
  { id: 510101, title: 'The Night Harbor', date: '2019-05-01', imdb: 'tt7200101', poster: '/night-harbor.jpg', overview: 'A ferry, a storm and one long night.', runtime: 112, genres: ['Drama', 'Thriller'] },
  { id: 510301, title: 'Starfall Protocol', date: '2024-03-15', imdb: 'tt7200301', poster: '/starfall.jpg', overview: 'A satellite falls and a town listens.', runtime: 98, genres: ['Science Fiction'] },
  { id: 777001, title: 'Night Train to Nowhere', date: '2011-10-10', imdb: 'tt7770001', poster: null, overview: '', runtime: 0, genres: [] },
];

const error = (status: number, code: number, message: string) => ({ status, body: { status_code: code, status_message: message, success: false } });

export async function startFakeTmdb(): Promise<FakeTmdb> {
  const state: Pick<FakeTmdb, 'mode'> = { mode: 'ok' };
  const authorizations: Array<string | undefined> = [];
  const fake = await startFakeHttp((req, res, url) => {
    authorizations.push(req.headers.authorization);
    if (state.mode === 'slow') return; // never answers
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Service temporarily down for maintenance</body></html>');
      return;
    }
    const poster = /^\/t\/p\/w\d+\/([a-z-]+\.jpg)$/.exec(url.pathname);
    if (poster) {
      if (!MOVIES.some((m) => m.poster === `/${poster[1]}`)) return sendJson(res, 404, error(404, 34, 'The resource you requested could not be found.').body);
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': TMDB_POSTER.length }).end(TMDB_POSTER);
      return;
    }
    const fail = (e: ReturnType<typeof error>) => sendJson(res, e.status, e.body);
    if (state.mode === 'busy') return fail(error(429, 25, 'Your request count (41) is over the allowed limit of 40.'));
    if (state.mode === 'unauthorized' || req.headers.authorization !== `Bearer ${TMDB_TOKEN}`) return fail(error(401, 7, 'Invalid API key: You must be granted a valid key.'));
    if (url.pathname === '/3/search/movie') {
      const page = Number(url.searchParams.get('page') ?? '1');
      if (!Number.isInteger(page) || page < 1 || page > 500) return fail(error(400, 22, 'Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.'));
      const words = (url.searchParams.get('query') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      const hits = MOVIES.map((m) => ({ m, score: words.filter((w) => m.title.toLowerCase().includes(w)).length }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score);
      const results = hits.map(({ m }) => ({ adult: false, backdrop_path: null, genre_ids: [18], id: m.id, original_language: 'en', original_title: m.title, overview: m.overview, popularity: 12.5, poster_path: m.poster, release_date: m.date, title: m.title, video: false, vote_average: 7.1, vote_count: 420 }));
      return sendJson(res, 200, { page, results: page === 1 ? results : [], total_pages: 1, total_results: results.length });
    }
    const movie = /^\/3\/movie\/(\d+)$/.exec(url.pathname);
    const found = movie ? MOVIES.find((m) => m.id === Number(movie[1])) : undefined;
    if (!found) return fail(error(404, 34, 'The resource you requested could not be found.'));
    const appended = (url.searchParams.get('append_to_response') ?? '').split(',');
    return sendJson(res, 200, {
      adult: false,
      id: found.id,
      imdb_id: found.imdb,
      title: found.title,
      original_title: found.title,
      overview: found.overview,
      poster_path: found.poster,
      release_date: found.date,
      runtime: found.runtime,
      genres: found.genres.map((name, i) => ({ id: i + 1, name })),
      status: 'Released',
      ...(appended.includes('external_ids') ? { external_ids: { imdb_id: found.imdb, wikidata_id: null, facebook_id: null, instagram_id: null, twitter_id: null } } : {}),
    });
  });
  const self = Object.defineProperties(fake, {
    mode: { get: () => state.mode, set: (m: FakeTmdb['mode']) => void (state.mode = m), enumerable: true },
    imageUrl: { get: () => `${fake.origin}/t/p`, enumerable: true },
  }) as FakeTmdb;
  self.authorizations = authorizations;
  self.reset = () => {
    state.mode = 'ok';
    authorizations.length = 0;
    fake.requests.length = 0;
  };
  return self;
}
