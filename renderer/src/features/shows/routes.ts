// The Watch feature's signed-in pages (issue 35: shows and films): where each lives, who may open
// it, the module its code is in and the GETs it makes first. React-free: the start-up loader reads
// these (through app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'watch', path: 'watch', access: 'user', module: 'features/shows/WatchPage', prefetch: () => ['/api/shows/watchlist', '/api/movies/watchlist', '/api/shows/schedule'] },
  { id: 'film', path: 'watch/films/:id', access: 'user', module: 'features/shows/FilmPage', prefetch: ({ id }) => (id && /^(tmdb|plex|lib)-[0-9a-f]+$/.test(id) ? [`/api/movies/${id}`] : []) },
  // the old address of the TV page: it opens the Watch page
  { id: 'shows', path: 'shows', access: 'user', module: 'features/shows/ShowsPage', prefetch: () => [] },
  { id: 'show', path: 'shows/:id', access: 'user', module: 'features/shows/ShowPage', prefetch: ({ id }) => (id && /^\d+$/.test(id) ? [`/api/shows/${id}`] : []) },
] as const satisfies readonly PageRoute[];
