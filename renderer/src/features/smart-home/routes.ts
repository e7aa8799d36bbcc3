// The smart-home feature's signed-in pages (issue 37): where each lives, who may open it, the module
// its code is in and the GETs it makes first. React-free: the start-up loader reads these (through
// app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'smart-home', path: 'smart-home', access: 'user', module: 'features/smart-home/SmartHomePage', prefetch: () => ['/api/home-assistant/entities'] },
  {
    id: 'smart-home-admin',
    path: 'smart-home/manage',
    access: 'admin',
    module: 'features/smart-home/SmartHomeAdminPage',
    prefetch: () => ['/api/admin/home-assistant/connection', '/api/admin/home-assistant/exposed', '/api/admin/home-assistant/members'],
  },
] as const satisfies readonly PageRoute[];
