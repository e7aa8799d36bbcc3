// The setup wizard's reads as hooks (TanStack Query, see api/query.ts): the catalog fitted to this
// computer (shared by the Computer and Plan steps, so the second step does not ask again), the
// model runtime's status (read fresh each time the step opens or Check again is pressed) and the
// addresses other devices reach Hearth at. Its writes as mutations: the wizard's place and choices,
// the admin profile, and the end of setup.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { CreateAdminResponse, ModelRuntimeStatus, SetupCatalog, SetupState } from '../../api/types';
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

/** Saves the wizard's step and choices, so a reload resumes there. */
export function useSaveSetupState() {
  return useMutation({
    mutationFn: (state: SetupState) => api.put('/api/setup/state', state),
  });
}

/** Creates the first admin (and signs them in); answers the new user. */
export function useCreateAdmin() {
  return useMutation({
    mutationFn: (body: { name: string; pin: string }) => api.post<CreateAdminResponse>('/api/setup/admin', body).then((r) => r.user),
  });
}

/** Marks setup finished: from now on the app opens on Home. */
export function useCompleteWelcome() {
  return useMutation({
    mutationFn: () => api.post('/api/setup/welcome-complete'),
  });
}
