// The maps feature's signed-in pages (issue 36): the Map for every member and the admin's Maps page
// (regions to download, household places). React-free: the start-up loader reads these too
// (through app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'maps', path: 'maps', access: 'user', module: 'features/maps/MapPage', prefetch: () => ['/api/maps/regions', '/api/maps/places'] },
  { id: 'maps-admin', path: 'admin/maps', access: 'admin', module: 'features/maps/MapsAdminPage', prefetch: () => ['/api/admin/maps/catalog', '/api/maps/places'] },
] as const satisfies readonly PageRoute[];
