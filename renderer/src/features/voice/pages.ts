// The voice feature's pages as the app shows them. app/pages.tsx lists this file.
import type { PageViews } from '../../app/page-view';
import type { routes } from './routes';

export const views: PageViews<typeof routes> = {
  'voice-admin': { label: 'Voice', icon: 'chat', order: 235, load: () => import('./VoiceAdminPage').then((m) => m.VoiceAdminPage), section: 'admin', summary: 'How Hearth speaks and listens: the default voice, speech servers and wake words.' },
  memos: { label: 'Memos', icon: 'play', order: 60, load: () => import('./MemosPage').then((m) => m.MemosPage), section: 'more', summary: 'Voice memos: record or upload a recording and find it again by its words.' },
};
