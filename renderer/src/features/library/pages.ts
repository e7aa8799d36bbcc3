// The library feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  library: { label: 'Library', icon: 'book', order: 80, load: () => import('./LibraryPage').then((m) => m.LibraryPage), toolId: 'library' },
  reader: { label: 'Reader', icon: 'book', load: () => import('./ReaderPage').then((m) => m.ReaderPage), inNav: false, toolId: 'library' },
  archives: { label: 'Archives', icon: 'archive', order: 210, load: () => import('./ArchivesAdminPage').then((m) => m.ArchivesAdminPage), section: 'admin', summary: 'Download and look after the offline archives in the Library.' },
};
