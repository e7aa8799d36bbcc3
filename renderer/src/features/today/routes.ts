// The today feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader reads these (app/page-table.ts).
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'today', path: 'today', access: 'user', module: 'features/today/TodayPage', prefetch: () => ['/api/weather', '/api/news?limit=30', '/api/on-this-day'] },
  { id: 'today-admin', path: 'admin/today', access: 'admin', module: 'features/today/TodayAdminPage', prefetch: () => ['/api/admin/briefing', '/api/admin/news/feeds'] },
] as const satisfies readonly PageRoute[];
