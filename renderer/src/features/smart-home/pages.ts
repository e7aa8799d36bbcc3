// The smart-home feature's pages as the app shows them: per route of routes.ts, its label, icon,
// lazily loaded component and where the navigation lists it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'smart-home': {
    label: 'Smart home',
    icon: 'home',
    order: 65,
    section: 'more',
    summary: 'Lights, heating, blinds and locks from Home Assistant, room by room.',
    load: () => import('./SmartHomePage').then((m) => m.SmartHomePage),
  },
  'smart-home-admin': {
    label: 'Smart home',
    icon: 'lock',
    order: 187,
    section: 'admin',
    summary: 'Connect Home Assistant, choose what the household sees, and who may use the locks.',
    load: () => import('./SmartHomeAdminPage').then((m) => m.SmartHomeAdminPage),
  },
};
