// The media feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

const enc = encodeURIComponent;

export const routes = [
  { id: 'media-play', path: 'media/play/:ratingKey', access: 'user', module: 'features/media/PlayerPage' },
  { id: 'media', path: 'media', access: 'user', module: 'features/media/MediaPage', prefetch: () => ['/api/mediaserver/status'] },
  {
    id: 'media-title',
    path: 'media/title/:ratingKey',
    access: 'user',
    module: 'features/media/TitlePage',
    prefetch: ({ ratingKey }) => (ratingKey ? [`/api/mediaserver/meta/${enc(ratingKey)}`] : []),
  },
  { id: 'media-link', path: 'media/link', access: 'user', module: 'features/media/LinkAccount', prefetch: () => ['/api/mediaserver/status', '/api/mediaserver/me'] },
  { id: 'media-videos', path: 'media/videos', access: 'user', module: 'features/media/HomeVideosPage', prefetch: () => ['/api/mediaserver/me/library-sections'] },
] as const satisfies readonly PageRoute[];
