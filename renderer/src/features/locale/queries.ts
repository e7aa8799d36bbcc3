// The locale's API calls as hooks: the household's setting (GET/PUT /api/admin/locale) and the
// member's own language and units (PUT /api/auth/me/locale). A change asks every answer again (the
// weather comes in the new units, dates in the new zone) and draws every screen again in it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { EffectiveLocaleResponse, LocaleSettingsResponse } from '../../api/types';
import { useSession } from '../../app/session';
import type { SetLocaleBody } from '../../../../server/modules/locale/schema.js';

export const ADMIN_LOCALE_KEY = ['admin', 'locale'] as const;

export function useLocaleSettings() {
  return useQuery({ queryKey: ADMIN_LOCALE_KEY, queryFn: ({ signal }) => api.get<LocaleSettingsResponse>('/api/admin/locale', { signal }) });
}

/** After a change: the session's locale again, then every cached answer asked again. */
function useFollowLocale() {
  const queryClient = useQueryClient();
  const { refreshLocale } = useSession();
  return async () => {
    await refreshLocale().catch(() => undefined);
    await queryClient.invalidateQueries();
  };
}

/** `onSaved` runs before the page is drawn again in the new locale (a toast said from it stays). */
export function useSaveLocale(onSaved: () => void) {
  const follow = useFollowLocale();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetLocaleBody) => api.put<LocaleSettingsResponse>('/api/admin/locale', body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(ADMIN_LOCALE_KEY, saved);
      onSaved();
      await follow();
    },
  });
}

export function useSaveMyLocale(onSaved: () => void) {
  const follow = useFollowLocale();
  return useMutation({
    mutationFn: (body: { language?: string | null; units?: 'metric' | 'imperial' | null }) => api.put<EffectiveLocaleResponse>('/api/auth/me/locale', body),
    onSuccess: async () => {
      onSaved();
      await follow();
    },
  });
}
