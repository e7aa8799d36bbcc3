// Polls GET /api/jobs/status every few seconds while the page is visible (a hidden tab stops
// asking and catches up at once when it is shown again). Keeps the last answer through a failed
// poll, so a blip shows as a banner rather than wiping the list.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { JobsStatus } from './types';

export const POLL_INTERVAL_MS = 2_000;

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
  const [data, setData] = useState<JobsStatus>();
  const [error, setError] = useState<unknown>(null);
  const pollRef = useRef<() => void>(() => {});

  useEffect(() => {
    let generation = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | undefined;
    let stopped = false;

    const poll = async () => {
      clearTimeout(timer);
      controller?.abort();
      if (stopped || document.visibilityState === 'hidden') return;
      const mine = ++generation;
      controller = new AbortController();
      try {
        const status = await api.get<JobsStatus>('/api/jobs/status', { signal: controller.signal });
        if (mine !== generation) return;
        setData(status);
        setError(null);
      } catch (err) {
        if (mine !== generation || (err as Error).name === 'AbortError') return;
        setError(err);
      }
      if (!stopped && document.visibilityState === 'visible') timer = setTimeout(() => void poll(), intervalMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') void poll();
      else {
        generation++; // an answer still on its way is dropped
        clearTimeout(timer);
        controller?.abort();
      }
    };
    pollRef.current = () => void poll();
    document.addEventListener('visibilitychange', onVisibility);
    void poll();
    return () => {
      stopped = true;
      generation++;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [intervalMs]);

  const refresh = useCallback(() => pollRef.current(), []);
  const patch = useCallback((update: (s: JobsStatus) => JobsStatus) => setData((s) => (s ? update(s) : s)), []);
  return { data, error, refresh, patch };
}
