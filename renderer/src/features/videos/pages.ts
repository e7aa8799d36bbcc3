// The Videos feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  videos: {
    label: 'Videos',
    icon: 'play',
    order: 146,
    section: 'more',
    toolId: 'videos',
    summary: 'New videos from the channels the household follows, PeerTube and your podcasts, in a player that keeps playing between pages.',
    load: () => import('./VideosPage').then((m) => m.VideosPage),
  },
  'videos-admin': {
    label: 'Videos',
    icon: 'play',
    order: 322,
    section: 'admin',
    toolId: 'videos',
    summary: 'The video search instance (Invidious or Piped), the PeerTube instances listed, and the size of the offline video cache.',
    load: () => import('./VideosAdminPage').then((m) => m.VideosAdminPage),
  },
};
