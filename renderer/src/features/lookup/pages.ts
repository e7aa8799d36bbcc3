// The Tools page as the app shows it: listed under More. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  tools: {
    label: 'Tools',
    icon: 'sliders',
    order: 70,
    section: 'more',
    summary: 'Small household helpers: what a barcode is, where a phone number is from.',
    load: () => import('./ToolsPage').then((m) => m.ToolsPage),
  },
};
