// The profile feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  profile: { label: 'Your profile', icon: 'members', load: () => import('./ProfilePage').then((m) => m.ProfilePage), inNav: false },
  memory: { label: 'Memory', icon: 'chat', load: () => import('./MemoryPage').then((m) => m.MemoryPage), inNav: false },
};
