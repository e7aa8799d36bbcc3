// The notify feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'notify-settings': { label: 'Notifications', icon: 'bell', inNav: false, load: () => import('./NotifySettingsPage').then((m) => m.NotifySettingsPage) },
  'notify-admin': {
    label: 'Notification channels',
    icon: 'bell',
    order: 188,
    section: 'admin',
    summary: 'Connect ntfy, Gotify, e-mail or a Telegram bot, and see what was delivered.',
    load: () => import('./NotifyAdminPage').then((m) => m.NotifyAdminPage),
  },
};
