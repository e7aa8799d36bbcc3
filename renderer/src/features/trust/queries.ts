// The secure-connection API calls as hooks (TanStack Query, see api/query.ts). Every admin change
// invalidates both the admin's view and the public status, which the Trust page and the offer read.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { TlsAdminResponse, TlsStatusResponse, UpdateTlsBody } from '../../../../server/modules/tls/schema.js';

export const TLS_STATUS_KEY = ['system', 'tls'] as const;
export const TLS_ADMIN_KEY = ['admin', 'tls'] as const;

export function useTlsStatus() {
  return useQuery({ queryKey: TLS_STATUS_KEY, queryFn: ({ signal }) => api.get<TlsStatusResponse>('/api/system/tls', { signal }) });
}

export function useTlsAdmin() {
  return useQuery({ queryKey: TLS_ADMIN_KEY, queryFn: ({ signal }) => api.get<TlsAdminResponse>('/api/admin/tls', { signal }) });
}

export function useUpdateTls() {
  return useMutation({
    mutationFn: (body: UpdateTlsBody) => api.put<TlsAdminResponse>('/api/admin/tls', body),
    meta: { invalidates: [TLS_ADMIN_KEY, TLS_STATUS_KEY] },
  });
}

export function useRenewTls() {
  return useMutation({
    mutationFn: () => api.post<TlsAdminResponse>('/api/admin/tls/renew'),
    meta: { invalidates: [TLS_ADMIN_KEY, TLS_STATUS_KEY] },
  });
}
