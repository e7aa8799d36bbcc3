// The models feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  models: { label: 'Models', icon: 'sparkles', order: 200, load: () => import('./ModelsPage').then((m) => m.ModelsPage), section: 'admin', summary: 'The AI models on this computer, the household’s choices, and who may use which.' },
};
