// The downloads feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  downloads: { label: 'Downloads', icon: 'download', order: 170, load: () => import('./DownloadsPage').then((m) => m.DownloadsPage), section: 'more', summary: 'Everything Hearth is downloading, with progress.' },
};
