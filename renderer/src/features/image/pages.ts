// The image feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  // 'more' for the same reason as the Inventory: the phone's tab bar is full at 320 px
  images: { label: 'Pictures', icon: 'image', order: 100, load: () => import('./CreatePage').then((m) => m.CreatePage), section: 'more', summary: 'Create pictures from words and tidy up photos, privately on this computer.' },
  'images-edit': { label: 'Edit a picture', icon: 'image', load: () => import('./EditPage').then((m) => m.EditPage), inNav: false },
  'images-history': { label: 'My pictures', icon: 'image', load: () => import('./HistoryPage').then((m) => m.HistoryPage), inNav: false },
};
