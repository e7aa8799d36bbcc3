// The companions feature's pages as the app shows them: per route of routes.ts, its label, icon,
// lazily loaded component and where the navigation lists it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  companions: {
    label: 'Companions',
    icon: 'smile',
    order: 45,
    section: 'more',
    summary: 'Chat with a helper made for one thing: homework, cooking, planning a trip.',
    load: () => import('./CompanionsPage').then((m) => m.CompanionsPage),
  },
  'companions-admin': {
    label: 'Edit companions',
    icon: 'smile',
    order: 185,
    section: 'admin',
    summary: 'Create and edit chat companions, and choose who may use each.',
    load: () => import('./CompanionsAdminPage').then((m) => m.CompanionsAdminPage),
  },
};
