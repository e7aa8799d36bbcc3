// The trust feature's signed-in page as the app shows it: its label, icon, lazily loaded component
// and where the navigation lists it. app/pages.tsx lists this file; nothing else in app/ names it.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'tls-admin': { label: 'Secure connections', icon: 'lock', order: 305, load: () => import('./TlsAdminPage').then((m) => m.TlsAdminPage), section: 'admin', summary: 'Hearth’s secure address: its certificate, the names it covers, and each device’s steps.' },
};
