// The today feature's pages as the app shows them. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  today: { label: 'Today', icon: 'sun', order: 15, load: () => import('./TodayPage').then((m) => m.TodayPage), toolId: 'today', section: 'more', summary: 'Weather, headlines and on this day.' },
  'today-admin': { label: 'Today settings', icon: 'sun', order: 320, load: () => import('./TodayAdminPage').then((m) => m.TodayAdminPage), section: 'admin', summary: 'The household’s place for the weather, news feeds, and what each source is sent.' },
};
