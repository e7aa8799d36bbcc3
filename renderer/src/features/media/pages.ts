// The media feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'media-play': { label: 'Play', icon: 'play', load: () => import('./PlayerPage').then((m) => m.PlayerPage), inNav: false },
  media: {
    label: 'Media',
    icon: 'play',
    order: 140,
    load: () => import('./MediaPage').then((m) => m.MediaPage),
    section: 'more',
    shownWhen: 'media',
    summary: 'The household’s films and shows on Plex: continue watching, what is new, what is playing.',
  },
  'media-title': { label: 'Media', icon: 'play', load: () => import('./TitlePage').then((m) => m.TitlePage), inNav: false },
  'media-link': { label: 'Link my Plex account', icon: 'play', load: () => import('./LinkAccount').then((m) => m.LinkAccountPage), inNav: false },
  'media-videos': { label: 'My home videos', icon: 'upload', order: 270, load: () => import('./HomeVideosPage').then((m) => m.HomeVideosPage), section: 'more', shownWhen: 'home-videos', summary: 'Add your own videos to your private library on Plex.' },
};
