// The image feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'images', path: 'images', access: 'user', module: 'features/image/CreatePage', prefetch: () => ['/api/image/status', '/api/image/loras', '/api/image/building'] },
  { id: 'images-edit', path: 'images/edit', access: 'user', module: 'features/image/EditPage', prefetch: () => ['/api/image/status', '/api/image/history'] },
  { id: 'images-history', path: 'images/history', access: 'user', module: 'features/image/HistoryPage', prefetch: (_, search) => (search ? [] : ['/api/image/history']) },
] as const satisfies readonly PageRoute[];
