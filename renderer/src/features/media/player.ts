// The player page's calls: the title's metadata (m-lib's GET /meta/:ratingKey, for the name and the
// member's resume point), the stream proxy's address, and progress reports (POST
// /meta/:ratingKey/progress). A player whose metadata or progress route is missing still plays:
// it starts at the beginning and stops reporting, without a word to the person watching.
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, apiFetch, refusalSentence } from '../../api/client';
import type { MetaResponse } from '../../../../server/modules/media-server/schema.js';

export const PROGRESS_EVERY_MS = 10_000;

export const streamUrl = (ratingKey: string) => `/api/mediaserver/stream/${encodeURIComponent(ratingKey)}`;
const metaPath = (ratingKey: string) => `/api/mediaserver/meta/${encodeURIComponent(ratingKey)}`;

/** The title's metadata, or null when it cannot be had (the player plays on without it). */
export function usePlayerMeta(ratingKey: string) {
  return useQuery({
    queryKey: ['media', 'meta', ratingKey],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<MetaResponse>(metaPath(ratingKey), { signal });
      } catch (err) {
        if (err instanceof ApiError && err.status !== 401) return null;
        throw err;
      }
    },
    retry: false,
    staleTime: 60_000,
  });
}

export type ProgressState = 'playing' | 'paused' | 'stopped';

/** Reports where the member is; false once the server has no progress route (stop asking). */
export async function reportProgress(ratingKey: string, positionMs: number, durationMs: number | null, state: ProgressState): Promise<boolean> {
  try {
    await api.post(`${metaPath(ratingKey)}/progress`, { positionMs: Math.max(0, Math.round(positionMs)), ...(durationMs ? { durationMs: Math.round(durationMs) } : {}), state });
    return true;
  } catch (err) {
    return !(err instanceof ApiError && err.status === 404 && err.code === 'no_route');
  }
}

/** Why the stream did not play, in the server's own sentence (a one-byte read asks it). */
export async function streamProblem(ratingKey: string): Promise<string> {
  try {
    const res = await apiFetch(streamUrl(ratingKey), { headers: { Range: 'bytes=0-0' } });
    if (res.ok) return 'This film could not be played in this browser. Try the Plex app on a TV or phone.';
    const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
    return typeof body?.error?.message === 'string' ? body.error.message : refusalSentence(res.status);
  } catch (err) {
    return err instanceof Error ? err.message : 'Hearth cannot be reached just now.';
  }
}
