// The locale feature's signed-in page: the admin's Language and region (/admin/locale). React-free:
// the start-up loader reads it (through app/page-table.ts); pages.ts beside this file says how it shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'locale-admin', path: 'admin/locale', access: 'admin', module: 'features/locale/LocaleAdminPage', prefetch: () => ['/api/admin/locale'] }] as const satisfies readonly PageRoute[];
