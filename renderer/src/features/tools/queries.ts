// The tools' API calls as hooks: the converter's presets and a job (the upload, then its event
// stream), the speed test's stored results.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { uploadFile } from '../../api/upload';
import type { JobEvents, PresetsResponse } from '../../../../server/modules/converter/schema.js';
import type { SpeedtestResult, SpeedtestResultBody } from '../../../../server/modules/speedtest/schema.js';

export type { JobEvents, PresetsResponse, SpeedtestResult };
export type JobStreamEvents = JobEvents & { error: { code: string; message: string } };

export const PRESETS_KEY = ['converter', 'presets'] as const;
export const SPEEDTEST_RESULTS_KEY = ['speedtest', 'results'] as const;

export function useConverterPresets() {
  return useQuery({ queryKey: PRESETS_KEY, queryFn: ({ signal }) => api.get<PresetsResponse>('/api/converter/presets', { signal }), staleTime: 5 * 60_000 });
}

/** Sends the file with its preset: the job's id (its events are followed with openGetStream). */
export function startConversion(file: File, preset: string, onProgress: (f: number) => void, signal: AbortSignal): Promise<{ jobId: string }> {
  return uploadFile<{ jobId: string }>('/api/converter/jobs', file, { fields: { preset }, onProgress, signal });
}

export function cancelConversion(jobId: string): Promise<unknown> {
  return api.delete(`/api/converter/jobs/${encodeURIComponent(jobId)}`);
}

export const convertedFileUrl = (fileId: string) => `/api/converter/files/${encodeURIComponent(fileId)}`;

export function useSpeedtestResults() {
  return useQuery({ queryKey: SPEEDTEST_RESULTS_KEY, queryFn: ({ signal }) => api.get<{ results: SpeedtestResult[] }>('/api/speedtest/results?limit=5', { signal }) });
}

export function useSaveSpeedtestResult() {
  return useMutation({
    mutationFn: (body: SpeedtestResultBody) => api.post<{ result: SpeedtestResult }>('/api/speedtest/results', body),
    meta: { invalidates: [SPEEDTEST_RESULTS_KEY] },
  });
}
