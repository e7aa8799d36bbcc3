// The chat feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  chat: { label: 'Chat', icon: 'chat', order: 40, load: () => import('./ChatPage').then((m) => m.ChatPage) },
};
