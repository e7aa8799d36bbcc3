// The download queue's API calls as hooks (TanStack Query, see api/query.ts). The status is polled
// every 2 s while the tab is visible (a hidden tab stops asking and catches up as soon as it is
// shown); a failed poll keeps the last answer, so a blip shows as a banner rather than wiping the list.
// Every admin action invalidates JOBS_KEY, so the list is read again before its button stops spinning.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api/client';
import type { JobsStatus, RetriedResponse } from './types';

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
  return { data: status.data, error: status.error, refresh };
}

const jobPath = (id: string) => `/api/jobs/${encodeURIComponent(id)}`;

/** Pauses (true) or resumes (false) the queue (admins); the status shows it before the next poll. */
export function usePauseQueue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paused: boolean) => api.post(paused ? '/api/admin/queue/pause' : '/api/admin/queue/resume').then(() => paused),
    onSuccess: (paused) => queryClient.setQueryData<JobsStatus>(STATUS_KEY, (s) => (s ? { ...s, paused } : s)),
    meta: { invalidates: [JOBS_KEY] },
  });
}

/** Starts every failed download again; answers how many. */
export function useRetryAllFailed() {
  return useMutation({
    mutationFn: () => api.post<RetriedResponse>('/api/jobs/retry-all-failed').then((r) => r.retried),
    meta: { invalidates: [JOBS_KEY] },
  });
}

export function useRetryJob() {
  return useMutation({
    mutationFn: (id: string) => api.post(`${jobPath(id)}/retry`),
    meta: { invalidates: [JOBS_KEY] },
  });
}

/** Moves a waiting download one place up or down the line (admins). */
export function useMoveJob() {
  return useMutation({
    mutationFn: ({ id, direction }: { id: string; direction: 'up' | 'down' }) =>
      api.patch(`/api/admin/queue/${encodeURIComponent(id)}`, { move: direction }),
    meta: { invalidates: [JOBS_KEY] },
  });
}

/** Cancels a download; what it fetched so far is deleted (admins). */
export function useCancelJob() {
  return useMutation({
    mutationFn: (id: string) => api.post(`${jobPath(id)}/cancel`),
    meta: { invalidates: [JOBS_KEY] },
  });
}
