// The media-admin feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'media-admin', path: 'admin/media', access: 'admin', module: 'features/media-admin/ConnectionPage', prefetch: () => ['/api/mediaserver/config'] },
  {
    id: 'media-storage',
    path: 'admin/media-storage',
    access: 'admin',
    module: 'features/media-admin/StoragePage',
    prefetch: () => ['/api/admin/storage-locations', '/api/mediaserver/admin/library-sections', '/api/mediaserver/admin/upload-limits'],
  },
] as const satisfies readonly PageRoute[];
