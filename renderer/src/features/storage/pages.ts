// The storage feature's page as the app shows it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'storage-admin': { label: 'Storage', icon: 'folder', order: 295, load: () => import('./StorageAdminPage').then((m) => m.StorageAdminPage), section: 'admin', summary: 'What fills the data disk, how much is free, and safe clean-ups.' },
};
