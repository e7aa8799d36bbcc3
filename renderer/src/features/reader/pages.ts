// The reader feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'saved-reader': { label: 'Reader', icon: 'bookmark', order: 20, load: () => import('./ReaderListPage').then((m) => m.ReaderListPage), toolId: 'reader' },
  'reader-article': { label: 'Reader', icon: 'bookmark', load: () => import('./ArticlePage').then((m) => m.ArticlePage), inNav: false, toolId: 'reader' },
  'reader-admin': { label: 'Household links', icon: 'bookmark', order: 300, load: () => import('./ReaderAdminPage').then((m) => m.ReaderAdminPage), inNav: false, toolId: 'reader', section: 'admin', summary: 'Links in the Reader that everyone in the household sees.' },
};
