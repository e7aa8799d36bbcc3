// The voice feature's signed-in page: Memos (/memos). React-free: the start-up loader reads it
// (through app/page-table.ts); pages.ts beside this file says how the page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'memos', path: 'memos', access: 'user', module: 'features/voice/MemosPage', prefetch: () => ['/api/voice/memos', '/api/voice'] }] as const satisfies readonly PageRoute[];
