// The Listen feature's signed-in pages (issue 35, podcasts): where each lives, who may open it, the
// module its code is in and the GETs it makes first. React-free: the start-up loader reads these
// (through app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'listen', path: 'listen', access: 'user', module: 'features/listen/ListenPage', prefetch: () => ['/api/podcasts/subscriptions', '/api/podcasts/inbox'] },
  {
    id: 'listen-show',
    path: 'listen/:id',
    access: 'user',
    module: 'features/listen/ListenShowPage',
    prefetch: ({ id }) => (id ? ['/api/podcasts/subscriptions', `/api/podcasts/subscriptions/${encodeURIComponent(id)}/episodes`] : []),
  },
] as const satisfies readonly PageRoute[];
