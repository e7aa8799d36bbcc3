// The chat feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  // one page for /chat and /chat/:id, so an answer keeps arriving while the address gains the chat's id
  { id: 'chat', path: 'chat/*', access: 'user', module: 'features/chat/ChatPage' },
] as const satisfies readonly PageRoute[];
