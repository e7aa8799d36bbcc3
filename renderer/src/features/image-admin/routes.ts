// The image-admin feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'image-engine', path: 'admin/images', access: 'admin', module: 'features/image-admin/EnginePage', prefetch: () => ['/api/admin/image-engine'] },
  { id: 'image-loras', path: 'admin/image-loras', access: 'admin', module: 'features/image-admin/LorasPage', prefetch: () => ['/api/admin/image-loras'] },
  { id: 'image-members', path: 'admin/image-members', access: 'admin', module: 'features/image-admin/MembersImagePage', prefetch: () => ['/api/admin/users', '/api/admin/image-loras'] },
] as const satisfies readonly PageRoute[];
