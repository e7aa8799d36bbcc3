// The image-admin feature's pages as the app shows them: per route of routes.ts, its label, icon, lazily
// loaded component and where the navigation lists it. app/pages.tsx lists this file; nothing else
// in app/ names these pages.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'image-engine': { label: 'Image engine', icon: 'image', order: 220, load: () => import('./EnginePage').then((m) => m.EnginePage), section: 'admin', summary: 'Set up the program that draws pictures, and see what it can do.' },
  'image-loras': { label: 'Picture add-ons', icon: 'sparkles', order: 230, load: () => import('./LorasPage').then((m) => m.LorasPage), inNav: false, section: 'admin', summary: 'LoRAs: add them, sort them into categories, find more online.' },
  'image-members': { label: 'Pictures: who may use what', icon: 'members', order: 240, load: () => import('./MembersImagePage').then((m) => m.MembersImagePage), inNav: false, section: 'admin', summary: 'Each member’s picture protections and the add-ons they may use.' },
};
