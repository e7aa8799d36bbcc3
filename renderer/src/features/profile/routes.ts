// The profile feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'profile', path: 'profile', access: 'user', module: 'features/profile/ProfilePage', prefetch: () => ['/api/mediaserver/status', '/api/voice'] },
  { id: 'memory', path: 'profile/memory', access: 'user', module: 'features/profile/MemoryPage', prefetch: () => ['/api/chat/memory'] },
] as const satisfies readonly PageRoute[];
