// Companions as hooks (TanStack Query, see api/query.ts): the caller's roster with favorites
// (GET /api/companions) and, for admins, the whole roster with grants (/api/admin/companions).
// Every admin change invalidates both, so the member's roster follows the editor.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AdminCompanion, Companion, MemberCompanion } from '../../api/types';

const MINE_KEY = ['companions', 'mine'] as const;
const ADMIN_KEY = ['companions', 'admin'] as const;
const CHANGES = [MINE_KEY, ADMIN_KEY] as const;
const path = (id: string) => `/api/admin/companions/${encodeURIComponent(id)}`;

export type CompanionInput = Omit<Companion, 'id'>;

/** The companions the caller may chat with, each with `favorite` (asked only while `enabled`). */
export function useCompanions(enabled = true) {
  return useQuery({ queryKey: MINE_KEY, enabled, queryFn: ({ signal }) => api.get<{ companions: MemberCompanion[] }>('/api/companions', { signal }).then((r) => r.companions) });
}

export function useSetFavorite() {
  return useMutation({
    mutationFn: ({ id, favorite }: { id: string; favorite: boolean }) => {
      const url = `/api/companions/${encodeURIComponent(id)}/favorite`;
      return favorite ? api.post<{ favorite: boolean }>(url, {}) : api.delete<{ favorite: boolean }>(url);
    },
    meta: { invalidates: [MINE_KEY] },
  });
}

/** Every companion with its grants (admins only). */
export function useAdminCompanions() {
  return useQuery({ queryKey: ADMIN_KEY, queryFn: ({ signal }) => api.get<{ companions: AdminCompanion[] }>('/api/admin/companions', { signal }).then((r) => r.companions) });
}

export function useCreateCompanion() {
  return useMutation({ mutationFn: (body: CompanionInput) => api.post<{ companion: AdminCompanion }>('/api/admin/companions', body), meta: { invalidates: CHANGES } });
}

export function useUpdateCompanion() {
  return useMutation({ mutationFn: ({ id, body }: { id: string; body: CompanionInput }) => api.patch<{ companion: AdminCompanion }>(path(id), body), meta: { invalidates: CHANGES } });
}

export function useDeleteCompanion() {
  return useMutation({ mutationFn: (id: string) => api.delete<void>(path(id)), meta: { invalidates: CHANGES } });
}

export function useSetGrant() {
  return useMutation({
    mutationFn: ({ id, userId, granted }: { id: string; userId: string; granted: boolean }) => api.put<{ companion: AdminCompanion }>(`${path(id)}/grants/${encodeURIComponent(userId)}`, { granted }),
    meta: { invalidates: CHANGES },
  });
}
