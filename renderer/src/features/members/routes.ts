// The members feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'members', path: 'members', access: 'admin', module: 'features/members/MembersPage', prefetch: () => ['/api/admin/users'] },
  { id: 'member-content', path: 'members/:userId/content', access: 'admin', module: 'features/members/MemberContentPage' },
] as const satisfies readonly PageRoute[];
