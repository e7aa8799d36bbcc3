// The library feature's signed-in pages: where each lives, who may open it, the module its code is in
// and the GETs it makes first. React-free: the start-up loader inlined in index.html reads these
// (through app/page-table.ts); pages.tsx beside this file says how each page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'library', path: 'library', access: 'user', module: 'features/library/LibraryPage' },
  // /read/:sourceId opens an archive at its home page, /read/:sourceId/<article path> at that article (chat's sources, search results)
  { id: 'reader', path: 'read/:sourceId/*', access: 'user', module: 'features/library/ReaderPage' },
  { id: 'archives', path: 'admin/archives', access: 'admin', module: 'features/library/ArchivesAdminPage' },
] as const satisfies readonly PageRoute[];
