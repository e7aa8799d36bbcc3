// The voice feature's page as the app shows it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  memos: { label: 'Memos', icon: 'play', order: 60, load: () => import('./MemosPage').then((m) => m.MemosPage), section: 'more', summary: 'Voice memos: record or upload a recording and find it again by its words.' },
};
