// The models API as hooks (TanStack Query, see api/query.ts): the installed models with the
// household's choices, and each member's chat models. Writes go through useAction with these keys
// invalidated. A pull's progress is the download queue's (features/downloads/queries.ts), not a
// second poller: the page reads the models again when a model job leaves the queue.
import { useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { EssentialRoleName, MemberModelAccessResponse, ModelAccessResponse, ModelsResponse, PullModelResponse } from './types';

/** Every answer about models lives under this key. */
export const MODELS_KEY = ['models'] as const;
export const MODEL_LIST_KEY = [...MODELS_KEY, 'list'] as const;
export const MODEL_ACCESS_KEY = [...MODELS_KEY, 'access'] as const;

export function useModels() {
  return useQuery({
    queryKey: MODEL_LIST_KEY,
    queryFn: ({ signal }) => api.get<ModelsResponse>('/api/models', { signal }),
  });
}

export function useModelAccess(enabled = true) {
  return useQuery({
    queryKey: MODEL_ACCESS_KEY,
    queryFn: ({ signal }) => api.get<ModelAccessResponse>('/api/models/access', { signal }),
    enabled,
  });
}

const modelPath = (name: string) => `/api/models/${encodeURIComponent(name)}`;

export const modelsApi = {
  select: (role: EssentialRoleName, model: string) => api.post<ModelsResponse>('/api/models/select', { role, model }),
  pull: (model: string) => api.post<PullModelResponse>('/api/models/pull', { model }),
  remove: (name: string) => api.delete<void>(modelPath(name)),
  setAccess: (userId: string, allowed: string[] | null) => api.put<MemberModelAccessResponse>(`/api/models/access/${encodeURIComponent(userId)}`, { allowed }),
};

/** The models list in the cache: read again (after a pull ends or a delete), or replaced by an answer that carries it. */
export function useModelsCache(): { refresh: () => Promise<void>; set: (list: ModelsResponse) => void } {
  const client = useQueryClient();
  return useMemo(
    () => ({
      refresh: () => client.invalidateQueries({ queryKey: MODELS_KEY }),
      set: (list: ModelsResponse) => void client.setQueryData<ModelsResponse>([...MODELS_KEY, 'list'], list),
    }),
    [client],
  );
}
