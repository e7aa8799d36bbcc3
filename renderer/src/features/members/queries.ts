// The household's members as hooks (TanStack Query, see api/query.ts). Every change to a member
// (add, edit, unlock, remove) invalidates MEMBERS_KEY and PROFILES_KEY, so the Members list, a
// member's home screen page, the admin-only page's list of admins and the profile picker agree,
// in this tab and the others, without a reload.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { CONTENT_KEY, IMAGE_GRANTS_KEY } from '../../api/query-keys';
import { CHECKLIST_KEY } from '../home';
import type { AdminUserResponse, MemberDials, ProfilesResponse, UserResponse, UsersResponse } from '../../api/types';

export const MEMBERS_KEY = ['members'] as const;
export const PROFILES_KEY = ['profiles'] as const;
const CHANGES = [MEMBERS_KEY, PROFILES_KEY, CHECKLIST_KEY] as const; // the checklist asks for someone besides the admin

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/** Every member, with their lock state (admins only). */
export function useMembers() {
  return useQuery({
    queryKey: MEMBERS_KEY,
    queryFn: ({ signal }) => api.get<UsersResponse>('/api/admin/users', { signal }).then((r) => r.users),
  });
}

/** The profiles the picker shows (name, avatar, role), for anyone. */
export function useProfiles() {
  return useQuery({
    queryKey: PROFILES_KEY,
    queryFn: ({ signal }) => api.get<ProfilesResponse>('/api/auth/profiles', { signal }).then((r) => r.profiles),
  });
}

export function useAddMember() {
  return useMutation({
    mutationFn: (body: { name: string; pin: string; role: string }) => api.post<UserResponse>('/api/admin/users', body).then((r) => r.user),
    meta: { invalidates: CHANGES },
  });
}

export function useUpdateMember() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: Record<string, string> }) => api.patch<UserResponse>(userPath(id), body).then((r) => r.user),
    meta: { invalidates: CHANGES },
  });
}

export function useUnlockMember() {
  return useMutation({
    mutationFn: (id: string) => api.post<AdminUserResponse>(`${userPath(id)}/unlock`).then((r) => r.user),
    meta: { invalidates: CHANGES },
  });
}

export function useRemoveMember() {
  return useMutation({
    mutationFn: (id: string) => api.delete(userPath(id)),
    meta: { invalidates: CHANGES },
  });
}

const contentPath = (id: string) => `/api/admin/content/members/${encodeURIComponent(id)}`;
const memberContentKey = (id: string) => [...CONTENT_KEY, 'member', id] as const;

/** One member's content dials as an admin set them (null: the area follows the level). */
export function useMemberContent(id: string) {
  return useQuery({ queryKey: memberContentKey(id), queryFn: ({ signal }) => api.get<MemberDials>(contentPath(id), { signal }) });
}

/** Saving the dials changes the member's picture protections too (the image admin page reads them). */
export function useSetMemberContent(id: string) {
  return useMutation({
    mutationFn: (body: Omit<MemberDials, 'userId'>) => api.put<MemberDials>(contentPath(id), body),
    meta: { invalidates: [CONTENT_KEY, IMAGE_GRANTS_KEY] },
  });
}
