// The trust feature's signed-in page: where it lives, who may open it, the module its code is in and
// the GETs it makes first. React-free: the start-up loader inlined in index.html reads these (through
// app/page-table.ts); pages.ts beside this file says how the page shows. The Trust page itself
// (/trust) is open to everyone, signed in or not, so it is a route of its own in app/router.tsx.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'tls-admin', path: 'admin/tls', access: 'admin', module: 'features/trust/TlsAdminPage', prefetch: () => ['/api/admin/tls'] },
] as const satisfies readonly PageRoute[];
