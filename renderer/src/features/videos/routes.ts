// The Videos feature's signed-in pages (issue 35, the video hub): where each lives, who may open it,
// the module its code is in and the GETs it makes first. React-free: the start-up loader reads these
// (through app/page-table.ts); pages.ts beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'videos', path: 'videos', access: 'user', module: 'features/videos/VideosPage', prefetch: () => ['/api/videos', '/api/youtube/channels'] },
  { id: 'videos-admin', path: 'videos/settings', access: 'admin', module: 'features/videos/VideosAdminPage', prefetch: () => ['/api/admin/videos'] },
] as const satisfies readonly PageRoute[];
