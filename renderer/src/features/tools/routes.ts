// The household tools' signed-in page (issue 38): Tools (/tools), a page of cards (the file converter,
// the speed test). React-free: the start-up loader reads it (through app/page-table.ts); pages.ts
// beside this file says how the page shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'tools', path: 'tools', access: 'user', module: 'features/tools/ToolsPage', prefetch: () => ['/api/converter/presets'] }] as const satisfies readonly PageRoute[];
