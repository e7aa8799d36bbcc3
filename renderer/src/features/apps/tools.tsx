// The household's tools and which of them are enabled, shared by the navigation, the App Store, page
// routes and the home canvas. Client rule (spec): no toolId = always visible; while the enabled set
// is still loading (or could not be read) everything is shown (optimistic); otherwise only enabled
// tools are visible. The list is one TanStack query (apps/queries.ts): read again when the tab
// comes back into view (the query client's focus rule), and after every switch on or off here or
// in another tab (the switch invalidates it), so an app appears or vanishes without a reload.
import { createContext, useCallback, useContext, useMemo, type ReactElement, type ReactNode } from 'react';
import type { Tool } from '../../../../server/modules/tools/schema.js';
import { useToolsList } from './queries';

export type { InstallRequestResponse, Tool, ToolResponse } from '../../../../server/modules/tools/schema.js';

export interface ToolsState {
  /** Every registered tool, enabled or not; undefined until the first answer. */
  tools: Tool[] | undefined;
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  reload: () => void;
  /** Whether something tied to `toolId` may be shown. */
  isVisible: (toolId?: string | null) => boolean;
}

const ToolsContext = createContext<ToolsState | null>(null);

export function ToolsProvider({ children }: { children: ReactNode }): ReactElement {
  const query = useToolsList();
  const { data, refetch } = query;
  const status = query.isPending ? 'loading' : query.isError ? 'error' : 'ready';

  const enabled = useMemo(() => (data ? new Set(data.filter((t) => t.enabled).map((t) => t.id)) : null), [data]);
  const isVisible = useCallback((toolId?: string | null) => !toolId || enabled === null || enabled.has(toolId), [enabled]);
  const reload = useCallback(() => void refetch(), [refetch]);

  const value = useMemo<ToolsState>(
    () => ({ tools: data, status, error: query.error, reload, isVisible }),
    [data, status, query.error, reload, isVisible],
  );
  return <ToolsContext.Provider value={value}>{children}</ToolsContext.Provider>;
}

export function useTools(): ToolsState {
  const ctx = useContext(ToolsContext);
  if (!ctx) throw new Error('useTools() outside <ToolsProvider>');
  return ctx;
}
