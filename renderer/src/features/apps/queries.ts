// The household's tools as hooks (TanStack Query, see api/query.ts). Switching a tool on or off
// invalidates TOOLS_KEY, so the navigation, the App Store, the admin page and the home screen all
// show the change (in the other tabs too) without a reload; the list is read again when the tab
// comes back into view (the query client's focus rule), so a change made on another device shows
// up there as well.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { InstallRequestResponse, ToolResponse, ToolsResponse } from '../../../../server/modules/tools/schema.js';
import { NOTIFICATIONS_KEY, TOOLS_KEY } from '../../api/query-keys';

export { TOOLS_KEY };

export function useToolsList() {
  return useQuery({
    queryKey: TOOLS_KEY,
    queryFn: ({ signal }) => api.get<ToolsResponse>('/api/tools', { signal }).then((r) => r.tools),
    staleTime: 0, // every look (a page load, the tab shown again) asks: readiness changes outside this app
  });
}

/** Installs (on) or removes (off) a tool for everyone (admins). */
export function useSetToolEnabled() {
  return useMutation({
    mutationFn: ({ toolId, enabled }: { toolId: string; enabled: boolean }) =>
      api.put<ToolResponse>(`/api/tools/${encodeURIComponent(toolId)}/enabled`, { enabled }).then((r) => r.tool),
    meta: { invalidates: [TOOLS_KEY] },
  });
}

/** A member asks the admins for a tool (it reaches their notifications). */
export function useRequestTool() {
  return useMutation({
    mutationFn: (body: { toolId: string; toolName: string; message?: string }) => api.post<InstallRequestResponse>('/api/app-store/request', body),
    meta: { invalidates: [NOTIFICATIONS_KEY] },
  });
}
