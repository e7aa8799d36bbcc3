// Smart home as hooks (TanStack Query, see api/query.ts): the entities the caller may see (GET
// /api/home-assistant/entities) kept live by the stream (GET /api/home-assistant/stream: each
// change is written into the cached answer here), actions, and the admin's connection, exposure and
// member rights.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../api/client';
import { openEventStream } from '../../api/sse';
import type { CameraEvents, FrigateSettings, HaActivityEntry, HaConnection, HaEntities, HaEntity, HaExposed, HaFavourites, HaMemberRights } from '../../api/types';

const ENTITIES_KEY = ['smart-home', 'entities'] as const;
const CONNECTION_KEY = ['smart-home', 'connection'] as const;
const EXPOSED_KEY = ['smart-home', 'exposed'] as const;
const MEMBERS_KEY = ['smart-home', 'members'] as const;
const ACTIVITY_KEY = ['smart-home', 'activity'] as const;
const FRIGATE_KEY = ['smart-home', 'frigate'] as const;
const CAMERA_EVENTS_KEY = ['smart-home', 'camera-events'] as const;
const FAVOURITES_KEY = ['smart-home', 'favourites'] as const;
const ADMIN_CHANGES = [ENTITIES_KEY, CONNECTION_KEY, EXPOSED_KEY, MEMBERS_KEY, FAVOURITES_KEY] as const;

export function useHomeEntities() {
  return useQuery({ queryKey: ENTITIES_KEY, queryFn: ({ signal }) => api.get<HaEntities>('/api/home-assistant/entities', { signal }) });
}

const replaceEntity = (data: HaEntities | undefined, entity: HaEntity): HaEntities | undefined =>
  data && { ...data, areas: data.areas.map((a) => ({ ...a, entities: a.entities.map((e) => (e.id === entity.id ? entity : e)) })) };

const replaceFavourite = (data: HaFavourites | undefined, entity: HaEntity): HaFavourites | undefined => data && { ...data, entities: data.entities.map((e) => (e.id === entity.id ? entity : e)) };

/** Writes an entity's new state into both cached answers (the page's rooms and the widget's favourites). */
function writeEntity(client: ReturnType<typeof useQueryClient>, entity: HaEntity): void {
  client.setQueryData<HaEntities>(ENTITIES_KEY, (d) => replaceEntity(d, entity));
  client.setQueryData<HaFavourites>(FAVOURITES_KEY, (d) => replaceFavourite(d, entity));
}

/**
 * Keeps the entities (and the favourites) live while mounted: each change replaces its tile; a
 * status change or an entity not yet on screen asks again. `which` is the answer the caller shows.
 */
export function useLiveEntities(which: 'rooms' | 'favourites' = 'rooms'): void {
  const client = useQueryClient();
  useEffect(() => {
    const key = which === 'rooms' ? ENTITIES_KEY : FAVOURITES_KEY;
    const stream = openEventStream<{ entity: { entity: HaEntity }; removed: { id: string }; status: { status: HaEntities['status']; message: string | null } }>('/api/home-assistant/stream', {
      entity: ({ entity }) => {
        const rooms = client.getQueryData<HaEntities>(ENTITIES_KEY);
        const known = which === 'rooms' ? rooms?.areas.some((a) => a.entities.some((e) => e.id === entity.id)) : true;
        if (known) writeEntity(client, entity);
        else void client.invalidateQueries({ queryKey: ENTITIES_KEY });
      },
      removed: () => void client.invalidateQueries({ queryKey: key }),
      status: ({ status }) => {
        if (client.getQueryData<{ status: HaEntities['status'] }>(key)?.status !== status) void client.invalidateQueries({ queryKey: key });
      },
    });
    return () => stream.close();
  }, [client, which]);
}

/** The member's favourite devices they may still see (the home screen widget; the page's stars). */
export function useFavourites() {
  return useQuery({ queryKey: FAVOURITES_KEY, queryFn: ({ signal }) => api.get<HaFavourites>('/api/home-assistant/favourites', { signal }) });
}

export function useSetFavourites() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (entityIds: string[]) => api.put<HaFavourites>('/api/home-assistant/favourites', { entityIds }),
    onSuccess: (data) => client.setQueryData<HaFavourites>(FAVOURITES_KEY, data),
  });
}

/** Recent camera events (shared: false when no recorder is set up or the caller is not told of them). */
export function useCameraEvents() {
  return useQuery({ queryKey: CAMERA_EVENTS_KEY, queryFn: ({ signal }) => api.get<CameraEvents>('/api/home-assistant/events', { signal }) });
}

export function useEntityAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, service, data, confirm }: { id: string; service: string; data?: Record<string, unknown>; confirm?: boolean }) =>
      api.post<{ entity: HaEntity | null }>(`/api/home-assistant/entities/${encodeURIComponent(id)}/action`, { service, ...(data ? { data } : {}), ...(confirm ? { confirm } : {}) }),
    onSuccess: ({ entity }) => {
      if (entity) writeEntity(client, entity);
    },
  });
}

export function useHaConnection() {
  return useQuery({ queryKey: CONNECTION_KEY, queryFn: ({ signal }) => api.get<HaConnection>('/api/admin/home-assistant/connection', { signal }) });
}

export function useConnect() {
  return useMutation({ mutationFn: (body: { url: string; token: string }) => api.put<HaConnection>('/api/admin/home-assistant/connection', body), meta: { invalidates: ADMIN_CHANGES } });
}

export function useDisconnect() {
  return useMutation({ mutationFn: () => api.delete<HaConnection>('/api/admin/home-assistant/connection'), meta: { invalidates: ADMIN_CHANGES } });
}

export function useExposed(enabled: boolean) {
  return useQuery({ queryKey: EXPOSED_KEY, enabled, queryFn: ({ signal }) => api.get<HaExposed>('/api/admin/home-assistant/exposed', { signal }) });
}

export function useSetExposed() {
  return useMutation({ mutationFn: (body: { entityIds: string[]; guarded: string[] }) => api.put<{ exposed: string[]; guarded: string[] }>('/api/admin/home-assistant/exposed', body), meta: { invalidates: ADMIN_CHANGES } });
}

export function useMemberRights() {
  return useQuery({ queryKey: MEMBERS_KEY, queryFn: ({ signal }) => api.get<{ members: HaMemberRights[] }>('/api/admin/home-assistant/members', { signal }).then((r) => r.members) });
}

export function useSetMemberRights() {
  return useMutation({
    mutationFn: ({ userId, ...body }: { userId: string; allowed: HaMemberRights['allowed']; guarded: HaMemberRights['guarded'] }) =>
      api.put<{ member: HaMemberRights }>(`/api/admin/home-assistant/members/${encodeURIComponent(userId)}`, body),
    meta: { invalidates: ADMIN_CHANGES },
  });
}

export function useActivity() {
  return useQuery({ queryKey: ACTIVITY_KEY, queryFn: ({ signal }) => api.get<{ entries: HaActivityEntry[] }>('/api/admin/home-assistant/activity', { signal }).then((r) => r.entries) });
}

export function useFrigate() {
  return useQuery({ queryKey: FRIGATE_KEY, queryFn: ({ signal }) => api.get<FrigateSettings>('/api/admin/frigate', { signal }) });
}

export function useSetFrigate() {
  return useMutation({
    mutationFn: (body: { url: string; user?: string | null; password?: string | null; mqttUrl?: string; notify: string[] }) => api.put<FrigateSettings>('/api/admin/frigate', body),
    meta: { invalidates: [FRIGATE_KEY, CAMERA_EVENTS_KEY] },
  });
}

export function useRemoveFrigate() {
  return useMutation({ mutationFn: () => api.delete<FrigateSettings>('/api/admin/frigate'), meta: { invalidates: [FRIGATE_KEY, CAMERA_EVENTS_KEY] } });
}
