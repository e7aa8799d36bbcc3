// The voice API calls as hooks: the voice config (engines, voices, the member's choices) and the
// member's memos (listed, uploaded, renamed, deleted). A memo still transcribing is asked about again
// every two seconds until it is ready or failed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { uploadFile } from '../../api/upload';
import type { Memo, VoiceConfigResponse } from '../../../../server/modules/voice/schema.js';

export type { Memo };
export const VOICE_KEY = ['voice'] as const;
export const MEMOS_KEY = ['voice', 'memos'] as const;

export function useVoiceConfig() {
  return useQuery({ queryKey: VOICE_KEY, queryFn: ({ signal }) => api.get<VoiceConfigResponse>('/api/voice', { signal }), staleTime: 60_000 });
}

export function useMemos() {
  return useQuery({
    queryKey: MEMOS_KEY,
    queryFn: ({ signal }) => api.get<{ memos: Memo[] }>('/api/voice/memos', { signal }),
    refetchInterval: (q) => (q.state.data?.memos.some((m) => m.status === 'transcribing') ? 2_000 : false),
  });
}

export function useUploadMemo() {
  return useMutation({
    mutationFn: ({ file, title, onProgress }: { file: File; title?: string; onProgress?: (f: number) => void }) => uploadFile<{ memo: Memo }>('/api/voice/memos', file, { fields: { title }, onProgress }),
    meta: { invalidates: [MEMOS_KEY] },
  });
}

export function useDeleteMemo() {
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/voice/memos/${encodeURIComponent(id)}`), meta: { invalidates: [MEMOS_KEY] } });
}

/** The member's own voice choices (voice, rate, wake word on/off and which). */
export function useUpdateVoiceChoices() {
  return useMutation({
    mutationFn: (patch: Partial<VoiceConfigResponse['choices']>) => api.put<VoiceConfigResponse>('/api/voice', patch),
    meta: { invalidates: [VOICE_KEY] },
  });
}
