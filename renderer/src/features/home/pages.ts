// The home feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  home: { label: 'Home', icon: 'home', order: 10, load: () => import('./HomePage').then((m) => m.HomePage) },
  'home-default': { label: 'Default home screen', icon: 'home', order: 310, load: () => import('./DefaultLayoutPage').then((m) => m.DefaultLayoutPage), inNav: false, section: 'admin', summary: 'The home screen a new member starts with.' },
  'member-home': { label: 'Home screen', icon: 'home', load: () => import('./MemberLayoutPage').then((m) => m.MemberLayoutPage), inNav: false },
};
