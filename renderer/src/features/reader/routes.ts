// The reader feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

const enc = encodeURIComponent;

export const routes = [
  // the list as it opens without filters (ReaderListPage's first page of 60)
  {
    id: 'saved-reader',
    path: 'reader',
    access: 'user',
    module: 'features/reader/ReaderListPage',
    prefetch: (_, search) => (search ? [] : ['/api/reader?limit=60', '/api/reader/collections', '/api/reader/tags']),
  },
  { id: 'reader-article', path: 'reader/:id', access: 'user', module: 'features/reader/ArticlePage', prefetch: ({ id }) => (id ? [`/api/reader/${enc(id)}`] : []) },
  { id: 'reader-admin', path: 'admin/reader', access: 'admin', module: 'features/reader/ReaderAdminPage' },
] as const satisfies readonly PageRoute[];
