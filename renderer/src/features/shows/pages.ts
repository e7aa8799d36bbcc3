// The Shows feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  shows: {
    label: 'Shows',
    icon: 'tv',
    order: 144,
    section: 'more',
    summary: 'TV shows: a watchlist, what airs next, and ticks for the episodes you have seen.',
    load: () => import('./ShowsPage').then((m) => m.ShowsPage),
  },
  show: { label: 'Shows', icon: 'tv', inNav: false, load: () => import('./ShowPage').then((m) => m.ShowPage) },
};
