// The shopping feature's signed-in page (issue 38): the household's shared lists. React-free: the
// start-up loader reads it (through app/page-table.ts); pages.ts beside this file says how it shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'shopping', path: 'shopping', access: 'user', module: 'features/shopping/ShoppingPage', prefetch: () => ['/api/shopping/lists'] }] as const satisfies readonly PageRoute[];
