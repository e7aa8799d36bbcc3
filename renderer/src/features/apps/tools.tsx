// The household's tools and which of them are enabled, shared by the navigation, the App Store, page
// routes and the home canvas. Client rule (spec): no toolId = always visible; while the enabled set
// is still loading (or could not be read) everything is shown (optimistic); otherwise only enabled
// tools are visible. The list is read again when the tab comes back into view, so an app an admin
// switched on or off elsewhere appears or vanishes without a reload.
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactElement, type ReactNode } from 'react';
import { api } from '../../api/client';
import { useResource } from '../../api/useResource';
import type { Tool, ToolsResponse } from '../../../../server/modules/tools/schema.js';

export type { InstallRequestResponse, Tool, ToolResponse } from '../../../../server/modules/tools/schema.js';

export interface ToolsState {
  /** Every registered tool, enabled or not; undefined until the first answer. */
  tools: Tool[] | undefined;
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  reload: () => void;
  /** Whether something tied to `toolId` may be shown. */
  isVisible: (toolId?: string | null) => boolean;
  /** Replaces one tool after a change this client made (PUT enabled answers the new row). */
  replaceTool: (tool: Tool) => void;
}

const ToolsContext = createContext<ToolsState | null>(null);

export function ToolsProvider({ children }: { children: ReactNode }): ReactElement {
  const res = useResource((signal) => api.get<ToolsResponse>('/api/tools', { signal }).then((r) => r.tools), []);
  const { reload, setData, data } = res;

  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === 'visible') reload();
    };
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [reload]);

  const enabled = useMemo(() => (data ? new Set(data.filter((t) => t.enabled).map((t) => t.id)) : null), [data]);
  const isVisible = useCallback((toolId?: string | null) => !toolId || enabled === null || enabled.has(toolId), [enabled]);
  const replaceTool = useCallback(
    (tool: Tool) => (data ? setData(data.map((t) => (t.id === tool.id ? tool : t))) : reload()),
    [data, setData, reload],
  );

  const value = useMemo<ToolsState>(
    () => ({ tools: data, status: res.status, error: res.error, reload, isVisible, replaceTool }),
    [data, res.status, res.error, reload, isVisible, replaceTool],
  );
  return <ToolsContext.Provider value={value}>{children}</ToolsContext.Provider>;
}

export function useTools(): ToolsState {
  const ctx = useContext(ToolsContext);
  if (!ctx) throw new Error('useTools() outside <ToolsProvider>');
  return ctx;
}
