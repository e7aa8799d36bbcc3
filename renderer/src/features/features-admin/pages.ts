// The features-admin feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  features: { label: 'Features', icon: 'sliders', order: 190, load: () => import('./FeaturesPage').then((m) => m.FeaturesPage), section: 'admin', summary: 'The models and components Hearth runs on this computer.' },
};
