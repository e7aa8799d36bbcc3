// The music API calls as hooks: whether music can be made here, the member's pieces, deleting one,
// and telling the cache a piece has ended (the history gains it).
import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { MusicEvents, MusicHistoryResponse, MusicStatusResponse, Piece } from '../../../../server/modules/music/schema.js';

export type { MusicEvents, Piece };
export { MAX_PROMPT_CHARS, MAX_SECONDS, MIN_SECONDS } from './limits';

export const MUSIC_KEY = ['music'] as const;
const STATUS_KEY = [...MUSIC_KEY, 'status'] as const;
const HISTORY_KEY = [...MUSIC_KEY, 'history'] as const;

export function useMusicStatus() {
  return useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => api.get<MusicStatusResponse>('/api/music/status', { signal }),
    // an engine that is starting is looked at again until it can say
    refetchInterval: (q) => (q.state.data && !q.state.data.available && q.state.data.missing.length === 0 ? 5_000 : false),
  });
}

export function useMusicHistory() {
  return useQuery({ queryKey: HISTORY_KEY, queryFn: ({ signal }) => api.get<MusicHistoryResponse>('/api/music', { signal }) });
}

export function useDeletePiece() {
  return useMutation({ mutationFn: (id: string) => api.delete(`/api/music/${encodeURIComponent(id)}`), meta: { invalidates: [HISTORY_KEY] } });
}

/** A piece ended (made or failed): the history is read again. */
export function useMusicEnded(): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    void client.invalidateQueries({ queryKey: HISTORY_KEY });
  }, [client]);
}
