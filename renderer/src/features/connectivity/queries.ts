// Connectivity's API calls as hooks: the admin's overview and offline switch (/api/admin/connectivity)
// and the offline state every member's pages show (/api/connectivity).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ConnectivityResponse, ConnectivityStatusResponse, PutConnectivityBody } from '../../../../server/modules/connectivity/schema.js';

export const ADMIN_CONNECTIVITY_KEY = ['admin', 'connectivity'] as const;
export const CONNECTIVITY_KEY = ['connectivity'] as const;

export function useConnectivity() {
  return useQuery({ queryKey: ADMIN_CONNECTIVITY_KEY, queryFn: ({ signal }) => api.get<ConnectivityResponse>('/api/admin/connectivity', { signal }) });
}

/** Whether offline mode is on, and who switched it (looked at again every minute and on focus). */
export function useOfflineMode() {
  return useQuery({ queryKey: CONNECTIVITY_KEY, queryFn: ({ signal }) => api.get<ConnectivityStatusResponse>('/api/connectivity', { signal }), staleTime: 60_000, refetchInterval: 60_000 });
}

export function useSetOfflineMode() {
  return useMutation({
    mutationFn: (body: PutConnectivityBody) => api.put<ConnectivityResponse>('/api/admin/connectivity', body),
    // every page that says whether Hearth is offline reads it again
    meta: { invalidates: [ADMIN_CONNECTIVITY_KEY, CONNECTIVITY_KEY] },
  });
}
