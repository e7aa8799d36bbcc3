// The media-admin feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'media-admin': { label: 'Media server', icon: 'play', order: 280, load: () => import('./ConnectionPage').then((m) => m.ConnectionPage), section: 'admin', summary: 'Connect the household’s Plex, and see whether it is working.' },
  'media-storage': { label: 'Media storage', icon: 'folder', order: 290, load: () => import('./StoragePage').then((m) => m.StoragePage), section: 'admin', summary: 'Where members’ own videos are kept, and their private libraries on Plex.' },
};
