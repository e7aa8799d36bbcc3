// The music feature's signed-in page: where it lives, who may open it, the module its code is in and
// the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.ts beside this file says how the page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'music', path: 'music', access: 'user', module: 'features/music/MusicPage', prefetch: () => ['/api/music/status', '/api/music'] }] as const satisfies readonly PageRoute[];
