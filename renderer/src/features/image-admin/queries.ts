// The image admin pages' API calls as hooks (TanStack Query, see api/query.ts): the engine's settings
// and status (read again every 3 s while it starts), its log, the household's LoRAs with their
// categories, and one member's grants and protections. Every write invalidates what it changes; a
// change to the engine or the LoRAs also invalidates the member-side image keys (status, LoRAs), so
// an open Create page follows.
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { CONTENT_KEY, IMAGE_GRANTS_KEY } from '../../api/query-keys';
import { IMAGE_KEY } from '../image';
import {
  categoriesApi,
  categoryApi,
  categoryGrantApi,
  ENGINE_API,
  hubKeyApi,
  hubSearchApi,
  loraApi,
  loraGrantApi,
  LORAS_API,
  memberGrantsApi,
  protectionsApi,
  type AdminLoraResponse,
  type AdminLorasResponse,
  type CategoryResponse,
  type EngineAdminResponse,
  type EngineConfigBody,
  type EngineLogsResponse,
  type GrantState,
  type HubKeyResponse,
  type HubSearchResponse,
  type LoraPatchBody,
  type MemberGrants,
  type Protections,
} from './types';

const ADMIN_KEY = ['image-admin'] as const;
const ENGINE_KEY = [...ADMIN_KEY, 'engine'] as const;
const LOGS_KEY = [...ADMIN_KEY, 'logs'] as const;
export const ADMIN_LORAS_KEY = [...ADMIN_KEY, 'loras'] as const;
const GRANTS_KEY = IMAGE_GRANTS_KEY; // a member's content dials change it too (api/query-keys.ts)
const HUB_KEY_KEY = [...ADMIN_KEY, 'hub-key'] as const;

export function useEngineAdmin() {
  return useQuery({
    queryKey: ENGINE_KEY,
    queryFn: ({ signal }) => api.get<EngineAdminResponse>(ENGINE_API, { signal }),
    refetchInterval: (q) => (q.state.data && (q.state.data.status.state === 'warming' || q.state.data.status.state === 'installing') ? 3_000 : false),
  });
}

/** `follow`: read again every few seconds (while the engine's environment is being installed). */
export function useEngineLogs(follow = false) {
  return useQuery({
    queryKey: LOGS_KEY,
    queryFn: ({ signal }) => api.get<EngineLogsResponse>(`${ENGINE_API}/logs`, { signal }).then((r) => r.lines),
    refetchInterval: follow ? 3_000 : false,
  });
}

/** POST /retry: a failed install or start runs again; the page follows it. */
export function useRetryEngine() {
  return useMutation({
    mutationFn: () => api.post<EngineAdminResponse>(`${ENGINE_API}/retry`, {}),
    meta: { invalidates: [ENGINE_KEY, LOGS_KEY, IMAGE_KEY] },
  });
}

export function useSaveEngine() {
  return useMutation({
    mutationFn: (body: EngineConfigBody) => api.put<EngineAdminResponse>(ENGINE_API, body),
    meta: { invalidates: [ENGINE_KEY, LOGS_KEY, IMAGE_KEY] },
  });
}

export function useAdminLoras() {
  return useQuery({ queryKey: ADMIN_LORAS_KEY, queryFn: ({ signal }) => api.get<AdminLorasResponse>(LORAS_API, { signal }) });
}

const LORA_CHANGES = [ADMIN_LORAS_KEY, GRANTS_KEY, IMAGE_KEY] as const;

export function usePatchLora() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: LoraPatchBody }) => api.patch<AdminLoraResponse>(loraApi(id), body).then((r) => r.lora),
    meta: { invalidates: LORA_CHANGES },
  });
}

export function useDeleteLora() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(loraApi(id)), meta: { invalidates: LORA_CHANGES } });
}

export function useAddCategory() {
  return useMutation({
    mutationFn: (name: string) => api.post<CategoryResponse>(categoriesApi, { name }).then((r) => r.category),
    meta: { invalidates: LORA_CHANGES },
  });
}

export function usePatchCategory() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: { name?: string; enabled?: boolean; sortOrder?: number } }) => api.patch<CategoryResponse>(categoryApi(id), body).then((r) => r.category),
    meta: { invalidates: LORA_CHANGES },
  });
}

export function useDeleteCategory() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(categoryApi(id)), meta: { invalidates: LORA_CHANGES } });
}

export function useMemberGrants(userId: string | null) {
  return useQuery({
    queryKey: [...GRANTS_KEY, userId],
    enabled: userId !== null,
    queryFn: ({ signal }) => api.get<MemberGrants>(memberGrantsApi(userId ?? ''), { signal }),
  });
}

export type GrantTarget = { kind: 'lora' | 'category'; id: string };

export function useSetGrant(userId: string) {
  return useMutation({
    mutationFn: ({ target, state }: { target: GrantTarget; state: GrantState | null }) =>
      api.put<unknown>(target.kind === 'lora' ? loraGrantApi(target.id, userId) : categoryGrantApi(target.id, userId), { state }),
    meta: { invalidates: [GRANTS_KEY, IMAGE_KEY] },
  });
}

export function useSetProtections(userId: string) {
  return useMutation({
    mutationFn: (body: Partial<Protections>) => api.patch<unknown>(protectionsApi(userId), body),
    meta: { invalidates: [GRANTS_KEY, IMAGE_KEY, CONTENT_KEY] }, // the protections are the member's content dials
  });
}

export function useHubKey(enabled = true) {
  return useQuery({ queryKey: HUB_KEY_KEY, enabled, queryFn: ({ signal }) => api.get<HubKeyResponse>(hubKeyApi, { signal }), retry: false });
}

export function useSetHubKey() {
  return useMutation({ mutationFn: (key: string) => api.put<HubKeyResponse>(hubKeyApi, { key }), meta: { invalidates: [HUB_KEY_KEY] } });
}

export function hubSearch(query: string): Promise<HubSearchResponse> {
  return api.post<HubSearchResponse>(hubSearchApi, { query });
}

/** After a LoRA was added or downloaded (an upload or a stream, not a mutation): the admin's list and the picture page's read again. */
export function useLorasChanged(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    await Promise.all([client.invalidateQueries({ queryKey: ADMIN_LORAS_KEY }), client.invalidateQueries({ queryKey: IMAGE_KEY })]);
  }, [client]);
}
