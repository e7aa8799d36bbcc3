// The inventory feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  inventory: {
    label: 'Inventory',
    icon: 'box',
    order: 50,
    load: () => import('./InventoryPage').then((m) => m.InventoryPage),
    toolId: 'inventory',
    // 'more' until the phone's tab bar can take a seventh tab: at 320 px Home, Reader, Chat, Library,
    // Admin and More already fill it (navigation.test.ts checks no label is cut)
    section: 'more',
    summary: 'Every device in the house, with its manual, warranty and service history.',
  },
  'inventory-warranties': { label: 'Warranties', icon: 'box', load: () => import('./WarrantiesPage').then((m) => m.WarrantiesPage), inNav: false, toolId: 'inventory' },
  'inventory-device': { label: 'Inventory', icon: 'box', load: () => import('./DevicePage').then((m) => m.DevicePage), inNav: false, toolId: 'inventory' },
};
