// The setup wizard's reads as hooks (TanStack Query, see api/query.ts): the catalog fitted to this
// computer (shared by the Computer and Plan steps, so the second step does not ask again), the
// model runtime's status (read fresh each time the step opens or Check again is pressed) and the
// addresses other devices reach Hearth at.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ModelRuntimeStatus, SetupCatalog } from '../../api/types';
import type { HouseAddressesResponse } from '../../../../server/modules/system/schema.js';

export function useSetupCatalog() {
  return useQuery({
    queryKey: ['setup', 'catalog'],
    queryFn: ({ signal }) => api.get<SetupCatalog>('/api/setup/catalog', { signal }),
  });
}

export function useRuntimeStatus() {
  return useQuery({
    queryKey: ['setup', 'ollama-status'],
    queryFn: ({ signal }) => api.get<ModelRuntimeStatus>('/api/setup/ollama-status', { signal }),
    staleTime: 0,
  });
}

export function useHouseAddresses() {
  return useQuery({
    queryKey: ['system', 'addresses'],
    queryFn: ({ signal }) => api.get<HouseAddressesResponse>('/api/system/addresses', { signal }),
  });
}
