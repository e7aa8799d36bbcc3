// The feature catalog as hooks (TanStack Query, see api/query.ts). Installing, uninstalling and
// switching a feature on or off invalidate what they change: the plan (FEATURES_KEY), the tools
// and their readiness (what the navigation, the App Store and Home show), the download queue and
// Home's Finish setting up card.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { TOOLS_KEY } from '../apps';
import { JOBS_KEY, type JobsResponse } from '../downloads';
import { CHECKLIST_KEY } from '../home';
import type { CatalogItem, FeatureFlagsResponse, FeaturePlan } from './types';

export const FEATURES_KEY = ['features'] as const;

/** The catalog with what is installed, what fits and each item's readiness (admins). */
export function useFeaturePlan() {
  return useQuery({
    queryKey: FEATURES_KEY,
    queryFn: ({ signal }) => api.get<FeaturePlan>('/api/admin/features', { signal }),
  });
}

/** Switches an installed feature on or off; the switch shows the answer's flags at once. */
export function useSetFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      api.put<FeatureFlagsResponse>(`/api/app-features/${encodeURIComponent(id)}`, { enabled }),
    onSuccess: ({ features }) => queryClient.setQueryData<FeaturePlan>(FEATURES_KEY, (plan) => (plan ? withFlags(plan, features) : plan)),
    meta: { invalidates: [FEATURES_KEY, TOOLS_KEY] },
  });
}

function withFlags(plan: FeaturePlan, flags: Record<string, boolean>): FeaturePlan {
  const set = <T extends CatalogItem>(i: T): T => ({ ...i, enabled: flags[i.id] === true });
  return {
    ...plan,
    groups: plan.groups.map((g) => ({ ...g, base: set(g.base), items: g.items.map(set), categories: g.categories.map((c) => ({ ...c, items: c.items.map(set) })) })),
  };
}

/** Queues the item's downloads (and what it needs); answers the jobs queued. */
export function useInstallFeature() {
  return useMutation({
    mutationFn: (id: string) => api.post<JobsResponse>('/api/admin/install', { items: [id] }).then((r) => r.jobs),
    meta: { invalidates: [FEATURES_KEY, JOBS_KEY, TOOLS_KEY, CHECKLIST_KEY] },
  });
}

export function useUninstallFeature() {
  return useMutation({
    mutationFn: (id: string) => api.post('/api/admin/uninstall', { items: [id] }),
    meta: { invalidates: [FEATURES_KEY, TOOLS_KEY, CHECKLIST_KEY] },
  });
}
