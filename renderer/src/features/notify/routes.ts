// The notify feature's signed-in pages (issue 38): a member's notification settings (under the
// profile) and the admin's channel servers with the delivery log. React-free: the start-up loader
// reads these (through app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'notify-settings', path: 'profile/notifications', access: 'user', module: 'features/notify/NotifySettingsPage', prefetch: () => ['/api/notify/routes', '/api/notify/link-status'] },
  { id: 'notify-admin', path: 'notifications/channels', access: 'admin', module: 'features/notify/NotifyAdminPage', prefetch: () => ['/api/admin/notify', '/api/admin/notify/deliveries'] },
] as const satisfies readonly PageRoute[];
