// The benchmarks feature's page as the app shows it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'benchmarks-admin': { label: 'Benchmarks', icon: 'flame', order: 297, load: () => import('./BenchmarksAdminPage').then((m) => m.BenchmarksAdminPage), section: 'admin', summary: 'How fast this computer answers chat, makes pictures and reads its disk.' },
};
