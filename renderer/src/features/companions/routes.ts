// The companions feature's signed-in pages: where each lives, who may open it, the module its code is
// in and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'companions', path: 'companions', access: 'user', module: 'features/companions/CompanionsPage', prefetch: () => ['/api/companions'] },
  { id: 'companions-admin', path: 'companions/manage', access: 'admin', module: 'features/companions/CompanionsAdminPage', prefetch: () => ['/api/admin/companions', '/api/admin/users'] },
] as const satisfies readonly PageRoute[];
