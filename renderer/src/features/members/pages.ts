// The members feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  members: { label: 'Members', icon: 'members', order: 180, load: () => import('./MembersPage').then((m) => m.MembersPage), section: 'admin', summary: 'Add people, change names, PINs and roles, unlock a profile.' },
  'member-content': { label: 'Content and safety', icon: 'shield', load: () => import('./MemberContentPage').then((m) => m.MemberContentPage), inNav: false },
};
