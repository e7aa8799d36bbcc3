// The download queue's API calls as hooks (TanStack Query, see api/query.ts). The status is polled
// every 2 s while the tab is visible (a hidden tab stops asking and catches up as soon as it is
// shown); a failed poll keeps the last answer, so a blip shows as a banner rather than wiping the list.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api/client';
import type { JobsStatus } from './types';

export const POLL_INTERVAL_MS = 2_000;

/** Every answer about the queue lives under this key; a write invalidates it. */
export const JOBS_KEY = ['jobs'] as const;
const STATUS_KEY = [...JOBS_KEY, 'status'] as const;

export interface JobsStatusResource {
  data: JobsStatus | undefined;
  /** The last poll's failure (cleared by the next answer). */
  error: unknown;
  /** Asks again now (after an action). */
  refresh: () => void;
  /** Shows a changed status before the next poll confirms it (e.g. paused). */
  patch: (update: (s: JobsStatus) => JobsStatus) => void;
}

export function useJobsStatus(intervalMs = POLL_INTERVAL_MS): JobsStatusResource {
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => api.get<JobsStatus>('/api/jobs/status', { signal }),
    refetchInterval: intervalMs,
    retry: false, // the next poll is the retry
  });
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: JOBS_KEY }), [queryClient]);
  const patch = useCallback(
    (update: (s: JobsStatus) => JobsStatus) => queryClient.setQueryData<JobsStatus>(STATUS_KEY, (s) => (s ? update(s) : s)),
    [queryClient],
  );
  return { data: status.data, error: status.error, refresh, patch };
}
