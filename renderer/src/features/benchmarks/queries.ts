// The admin Benchmarks page's API calls as hooks: the stored results (GET /api/admin/benchmarks), a
// run (POST /run) and its progress (GET /stream, events until done).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../api/client';
import { FEATURES_KEY } from '../features-admin';
import type { BenchmarksResponse } from '../../../../server/modules/benchmarks/schema.js';

export const ADMIN_BENCHMARKS_KEY = ['admin', 'benchmarks'] as const;

export function useBenchmarks() {
  return useQuery({ queryKey: ADMIN_BENCHMARKS_KEY, queryFn: ({ signal }) => api.get<BenchmarksResponse>('/api/admin/benchmarks', { signal }) });
}

export function useRunBenchmark() {
  return useMutation({ mutationFn: () => api.post<{ running: true; startedAt: string }>('/api/admin/benchmarks/run', {}) });
}

/** Reads the stored results again (a run ended); the Features page's hints change with them. */
export function useBenchmarksRefresh(): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    void client.invalidateQueries({ queryKey: ADMIN_BENCHMARKS_KEY });
    void client.invalidateQueries({ queryKey: FEATURES_KEY });
  }, [client]);
}
