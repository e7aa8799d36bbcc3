// The Watch feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it (one entry, Watch). app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  watch: {
    label: 'Watch',
    icon: 'tv',
    order: 144,
    section: 'more',
    summary: 'Shows and films: your watchlists, what airs next, and what the household’s Plex already has.',
    load: () => import('./WatchPage').then((m) => m.WatchPage),
  },
  film: { label: 'Watch', icon: 'tv', inNav: false, load: () => import('./FilmPage').then((m) => m.FilmPage) },
  shows: { label: 'Watch', icon: 'tv', inNav: false, load: () => import('./ShowsPage').then((m) => m.ShowsPage) },
  show: { label: 'Watch', icon: 'tv', inNav: false, load: () => import('./ShowPage').then((m) => m.ShowPage) },
};
