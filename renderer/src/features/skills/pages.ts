// The skills feature's page as the app shows it. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  skills: { label: 'Skills', icon: 'sparkles', inNav: false, load: () => import('./SkillsPage').then((m) => m.SkillsPage) },
};
