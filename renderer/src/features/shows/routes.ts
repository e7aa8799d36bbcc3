// The Shows feature's signed-in pages (issue 35, TV): where each lives, who may open it, the module
// its code is in and the GETs it makes first. React-free: the start-up loader reads these (through
// app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'shows', path: 'shows', access: 'user', module: 'features/shows/ShowsPage', prefetch: () => ['/api/shows/watchlist', '/api/shows/schedule'] },
  { id: 'show', path: 'shows/:id', access: 'user', module: 'features/shows/ShowPage', prefetch: ({ id }) => (id && /^\d+$/.test(id) ? [`/api/shows/${id}`] : []) },
] as const satisfies readonly PageRoute[];
