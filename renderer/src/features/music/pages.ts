// The music feature's page as the app shows it: its label, icon, lazily loaded component and where
// the navigation lists it (under More). app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  music: {
    label: 'Music',
    icon: 'headphones',
    // after App Store and Downloads: the phone's More sheet shows those without scrolling (navigation.test.ts)
    order: 175,
    section: 'more',
    summary: 'Describe a short piece of music and the household computer makes it; your pieces are yours alone.',
    load: () => import('./MusicPage').then((m) => m.MusicPage),
  },
};
