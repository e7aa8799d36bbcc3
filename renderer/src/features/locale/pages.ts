// The locale feature's page as the app shows it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'locale-admin': { label: 'Language and region', icon: 'globe', order: 296, load: () => import('./LocaleAdminPage').then((m) => m.LocaleAdminPage), section: 'admin', summary: 'The language, time zone, units and date and time formats every screen and answer follows.' },
};
