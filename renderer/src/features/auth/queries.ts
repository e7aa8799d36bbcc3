// Signing in as hooks (TanStack Query, see api/query.ts). POST /select confirms the chosen profile
// still exists (and gives its name and any lock on this device on a direct visit); it is asked once
// per profile opened, not again on focus (the PIN pad's own answers say what changed).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { SelectResponse } from '../../api/types';

export function useSelectProfile(userId: string) {
  return useQuery({
    queryKey: ['auth', 'select', userId],
    queryFn: ({ signal }) => api.post<SelectResponse>('/api/auth/select', { userId }, { signal }),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false, // the screen offers Try again
  });
}
