// Home's API calls as hooks (TanStack Query, see api/query.ts): the person's own layout, the
// household default, one member's layout (admins), the Reader widget's unread items and the
// Finish setting up checklist. Every layout write invalidates LAYOUT_KEY, so Home, the default's
// preview and a member's page agree (in the other tabs too) without a reload.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { DefaultLayoutResponse, LayoutResponse } from '../../../../server/modules/home-layout/schema.js';
import type { SetupChecklist } from '../../../../server/modules/setup/schema.js';
import type { ItemListResponse } from '../reader';

export const LAYOUT_KEY = ['home-layout'] as const;
/** Setup's checklist; members, features and the model runtime change it. */
export const CHECKLIST_KEY = ['setup', 'checklist'] as const;

type Layout = LayoutResponse['layout'];
const memberPath = (userId: string) => `/api/home-layout/users/${encodeURIComponent(userId)}`;

/** The signed-in person's home screen. `refetchOnWindowFocus` is off while they edit it. */
export function useMyLayout({ editing }: { editing: boolean }) {
  return useQuery({
    queryKey: [...LAYOUT_KEY, 'mine'],
    queryFn: ({ signal }) => api.get<LayoutResponse>('/api/home-layout', { signal }),
    staleTime: 0, // an admin may have changed or locked it: every look asks
    refetchOnWindowFocus: !editing,
  });
}

export function useSaveMyLayout() {
  return useMutation({
    mutationFn: (layout: Layout) => api.put<LayoutResponse>('/api/home-layout', layout),
    meta: { invalidates: [LAYOUT_KEY] },
  });
}

export function useDefaultLayout() {
  return useQuery({
    queryKey: [...LAYOUT_KEY, 'default'],
    queryFn: ({ signal }) => api.get<DefaultLayoutResponse>('/api/home-layout/default', { signal }),
  });
}

export function useSaveDefaultLayout() {
  return useMutation({
    mutationFn: (layout: Layout) => api.put<DefaultLayoutResponse>('/api/home-layout/default', layout),
    meta: { invalidates: [LAYOUT_KEY] },
  });
}

export function useMemberLayout(userId: string) {
  return useQuery({
    queryKey: [...LAYOUT_KEY, 'user', userId],
    queryFn: ({ signal }) => api.get<LayoutResponse>(memberPath(userId), { signal }),
  });
}

/** Arranges (a layout), resets (layout null) or locks/unlocks one member's home screen. */
export function useSetMemberLayout(userId: string) {
  return useMutation({
    mutationFn: (body: { layout?: Layout | null; locked?: boolean }) => api.put<LayoutResponse>(memberPath(userId), body),
    meta: { invalidates: [LAYOUT_KEY] },
  });
}

/** The newest unread Reader items, for the Reader widget. */
export function useUnreadReaderItems() {
  return useQuery({
    queryKey: ['reader', 'home-widget'],
    queryFn: ({ signal }) => api.get<ItemListResponse>('/api/reader?status=unread&hidden=exclude&limit=3', { signal }),
  });
}

/** "Finish setting up": read again whenever the tab comes back into view (staleTime 0). */
export function useSetupChecklist() {
  return useQuery({
    queryKey: CHECKLIST_KEY,
    queryFn: ({ signal }) => api.get<SetupChecklist>('/api/setup/checklist', { signal }),
    staleTime: 0,
  });
}
