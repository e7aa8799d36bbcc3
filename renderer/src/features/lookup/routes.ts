// The Tools page (issue 38), where the Lookup card lives. React-free: the start-up loader reads it
// (through app/page-table.ts); pages.ts beside this file says how it shows.
import type { PageRoute } from '../../app/page-types.js';

export const routes = [{ id: 'tools', path: 'tools', access: 'user', module: 'features/lookup/ToolsPage', prefetch: () => [] }] as const satisfies readonly PageRoute[];
