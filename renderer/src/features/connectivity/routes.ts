// The connectivity feature's signed-in page: the admin's Connectivity (/admin/connectivity). React-free:
// the start-up loader reads it (through app/page-table.ts); pages.ts beside this file says how it shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'connectivity-admin', path: 'admin/connectivity', access: 'admin', module: 'features/connectivity/ConnectivityAdminPage', prefetch: () => ['/api/admin/connectivity'] }] as const satisfies readonly PageRoute[];
