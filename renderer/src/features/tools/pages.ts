// The tools feature's page as the app shows it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  tools: { label: 'Tools', icon: 'sliders', order: 65, load: () => import('./ToolsPage').then((m) => m.ToolsPage), section: 'more', summary: 'Convert files so phones can open them, measure how fast this device reaches Hearth, look up a barcode or a phone number, read a photo or a receipt.' },
};
