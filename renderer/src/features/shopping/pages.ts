// The shopping feature's page as the app shows it: listed under More. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  shopping: {
    label: 'Shopping',
    icon: 'list',
    order: 52,
    section: 'more',
    summary: 'The household’s shared shopping lists, live on every phone in the shop.',
    load: () => import('./ShoppingPage').then((m) => m.ShoppingPage),
  },
};
