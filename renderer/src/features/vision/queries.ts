// Vision as hooks: whether a photo can be analyzed now (GET /api/vision/status) and one analysis
// (POST /api/vision/analyze, the photo as a form upload; nothing is kept on the Hearth computer).
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { uploadFile } from '../../api/upload';
import type { AnalyzeResponse, VisionStatusResponse, VisionTask } from '../../../../server/modules/vision/schema.js';

export type { AnalyzeResponse, VisionTask };

export const VISION_STATUS_KEY = ['vision', 'status'] as const;

export function useVisionStatus() {
  return useQuery({ queryKey: VISION_STATUS_KEY, queryFn: ({ signal }) => api.get<VisionStatusResponse>('/api/vision/status', { signal }) });
}

export interface AnalyzeRequest {
  file: File;
  task: VisionTask;
  /** The member's JSON schema, for task `schema`. */
  schema?: string;
}

export function useAnalyzePhoto() {
  return useMutation({
    mutationFn: ({ file, task, schema }: AnalyzeRequest) => uploadFile<AnalyzeResponse>('/api/vision/analyze', file, { fields: { task, schema: task === 'schema' ? schema : undefined }, fileField: 'image' }),
  });
}
