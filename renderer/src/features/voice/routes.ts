// The voice feature's signed-in pages: Memos (/memos) and the admin's Voice (/admin/voice). React-free: the start-up loader reads it
// (through app/page-table.ts); pages.ts beside this file says how the page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [
  { id: 'memos', path: 'memos', access: 'user', module: 'features/voice/MemosPage', prefetch: () => ['/api/voice/memos', '/api/voice'] },
  { id: 'voice-admin', path: 'admin/voice', access: 'admin', module: 'features/voice/VoiceAdminPage', prefetch: () => ['/api/admin/voice', '/api/voice', '/api/admin/wakewords'] },
] as const satisfies readonly PageRoute[];
