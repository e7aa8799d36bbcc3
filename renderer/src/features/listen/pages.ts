// The Listen feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  listen: {
    label: 'Listen',
    icon: 'headphones',
    order: 142,
    section: 'more',
    summary: 'Podcasts: find and follow shows, new episodes, and a player that keeps playing between pages.',
    load: () => import('./ListenPage').then((m) => m.ListenPage),
  },
  'listen-show': { label: 'Listen', icon: 'headphones', inNav: false, load: () => import('./ListenShowPage').then((m) => m.ListenShowPage) },
};
