// The maps feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  maps: {
    label: 'Map',
    icon: 'map',
    order: 55,
    section: 'more',
    summary: 'Maps of the regions the household installed, with place search and directions that work offline.',
    load: () => import('./MapPage').then((m) => m.MapPage),
  },
  'maps-admin': {
    label: 'Maps',
    icon: 'map',
    order: 245,
    section: 'admin',
    summary: 'Download map regions for everyone, and set the household’s places such as Home and School.',
    load: () => import('./MapsAdminPage').then((m) => m.MapsAdminPage),
  },
};
