// The connectivity feature's page as the app shows it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'connectivity-admin': { label: 'Connectivity', icon: 'external', order: 296, load: () => import('./ConnectivityAdminPage').then((m) => m.ConnectivityAdminPage), section: 'admin', summary: 'How phones reach Hearth, whether the internet answers, and offline mode.' },
};
