// The benchmarks feature's signed-in page: the admin's Benchmarks (/admin/benchmarks). React-free: the
// start-up loader reads it (through app/page-table.ts); pages.ts beside this file says how it shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'benchmarks-admin', path: 'admin/benchmarks', access: 'admin', module: 'features/benchmarks/BenchmarksAdminPage', prefetch: () => ['/api/admin/benchmarks'] }] as const satisfies readonly PageRoute[];
