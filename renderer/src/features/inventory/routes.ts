// The inventory feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

const enc = encodeURIComponent;

export const routes = [
  // the list as it opens without a search or a kind chosen (queries.ts devicesUrl)
  { id: 'inventory', path: 'inventory', access: 'user', module: 'features/inventory/InventoryPage', prefetch: (_, search) => (search ? [] : ['/api/home/devices']) },
  { id: 'inventory-warranties', path: 'inventory/warranties', access: 'user', module: 'features/inventory/WarrantiesPage', prefetch: () => ['/api/home/warranties?days=60'] },
  { id: 'inventory-device', path: 'inventory/:id', access: 'user', module: 'features/inventory/DevicePage', prefetch: ({ id }) => (id ? [`/api/home/devices/${enc(id)}`] : []) },
] as const satisfies readonly PageRoute[];
