// The storage feature's signed-in page: the admin's Storage (/admin/storage). React-free: the start-up
// loader reads it (through app/page-table.ts); pages.ts beside this file says how the page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'storage-admin', path: 'admin/storage', access: 'admin', module: 'features/storage/StorageAdminPage', prefetch: () => ['/api/admin/storage'] }] as const satisfies readonly PageRoute[];
