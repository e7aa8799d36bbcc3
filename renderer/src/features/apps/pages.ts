// The apps feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  apps: { label: 'App Store', icon: 'apps', order: 160, load: () => import('./AppStorePage').then((m) => m.AppStorePage), section: 'more', summary: 'The apps Hearth offers, and which ones the household has.' },
};
