// The voice API calls as hooks: the voice config (engines, voices, the member's choices) and the
// member's memos (listed, uploaded, renamed, deleted). A memo still transcribing is asked about again
// every two seconds until it is ready or failed.
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { uploadFile } from '../../api/upload';
import type { AdminVoiceResponse, AdminWakeWordsResponse, Memo, RemoteEngine, VoiceConfigResponse } from '../../../../server/modules/voice/schema.js';

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

export function useRenameMemo() {
  return useMutation({
    mutationFn: ({ id, title }: { id: string; title: string | null }) => api.patch<{ memo: Memo }>(`/api/voice/memos/${encodeURIComponent(id)}`, { title }),
    meta: { invalidates: [MEMOS_KEY] },
  });
}

// ---- the admin's voice page ----
export const ADMIN_VOICE_KEY = ['admin', 'voice'] as const;
export const ADMIN_WAKE_KEY = ['admin', 'wakewords'] as const;

export function useAdminVoice() {
  return useQuery({ queryKey: ADMIN_VOICE_KEY, queryFn: ({ signal }) => api.get<AdminVoiceResponse>('/api/admin/voice', { signal }) });
}

export function useSaveAdminVoice() {
  return useMutation({
    mutationFn: (patch: { defaultVoice?: string | null; sttEngine?: string | null }) => api.put<AdminVoiceResponse>('/api/admin/voice', patch),
    meta: { invalidates: [ADMIN_VOICE_KEY, VOICE_KEY] },
  });
}

export function useAddSpeechServer() {
  return useMutation({
    mutationFn: (body: { kind: 'openai' | 'wyoming'; name: string; url: string; apiKey?: string }) => api.post<{ engine: RemoteEngine }>('/api/admin/voice/engines', body),
    meta: { invalidates: [ADMIN_VOICE_KEY, VOICE_KEY] },
  });
}

export function useRemoveSpeechServer() {
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/admin/voice/engines/${encodeURIComponent(id)}`), meta: { invalidates: [ADMIN_VOICE_KEY, VOICE_KEY] } });
}

export function useTestSpeechServer() {
  return useMutation({ mutationFn: (id: string) => api.post<{ ok: boolean; message: string }>(`/api/admin/voice/engines/${encodeURIComponent(id)}/test`, {}) });
}

export function useAdminWakeWords() {
  return useQuery({ queryKey: ADMIN_WAKE_KEY, queryFn: ({ signal }) => api.get<AdminWakeWordsResponse>('/api/admin/wakewords', { signal }) });
}

export function useSetWakeWords() {
  return useMutation({
    mutationFn: (enabled: string[]) => api.put<AdminWakeWordsResponse>('/api/admin/wakewords', { enabled }),
    meta: { invalidates: [ADMIN_WAKE_KEY, VOICE_KEY] },
  });
}
