// One piece on its way, followed over its event stream (POST /api/music/generate): the step bar
// while the engine works, the finished piece, or the server's sentence when it was refused or
// failed. The page never shows a piece as coming that is not.
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { openPostStream, type PostStreamHandle } from '../../api/sse';
import { useMusicEnded, type MusicEvents, type Piece } from './queries';

export type MusicPhase = 'idle' | 'starting' | 'waiting' | 'making' | 'done' | 'failed';

export interface MusicJobState {
  phase: MusicPhase;
  /** 1-based place in the household's engine queue while waiting. */
  position: number | null;
  current: number;
  total: number;
  piece: Piece | null;
  error: string | null;
}

const IDLE: MusicJobState = { phase: 'idle', position: null, current: 0, total: 0, piece: null, error: null };

export function useMusicJob(): { state: MusicJobState; running: boolean; generate: (body: { prompt: string; seconds: number; seed?: number }) => void; reset: () => void } {
  const ended = useMusicEnded();
  const [state, setState] = useState<MusicJobState>(IDLE);
  const handle = useRef<PostStreamHandle | null>(null);
  useEffect(() => () => handle.current?.close(), []);

  const generate = useCallback(
    (body: { prompt: string; seconds: number; seed?: number }) => {
      handle.current?.close();
      setState({ ...IDLE, phase: 'starting' });
      const h = openPostStream<MusicEvents>(
        '/api/music/generate',
        body,
        {
          start: (d) => setState((s) => ({ ...s, phase: 'making', total: d.steps })),
          queued: (d) => setState((s) => ({ ...s, phase: 'waiting', position: d.position })),
          step: (d) => setState((s) => ({ ...s, phase: 'making', position: null, current: d.current, total: d.total })),
          done: (d) => setState((s) => ({ ...s, phase: 'done', current: s.total, piece: d.piece })),
          error: (d) => setState((s) => ({ ...s, phase: 'failed', error: d.message })),
        },
        { closeOn: ['done', 'error'] },
      );
      handle.current = h;
      h.done
        .then(() => setState((s) => (s.phase === 'starting' || s.phase === 'waiting' || s.phase === 'making' ? { ...s, phase: 'failed', error: 'The piece stopped before it was finished. Please try again.' } : s)))
        .catch((err: unknown) => setState((s) => ({ ...s, phase: 'failed', error: errorMessage(err) })))
        .finally(ended);
    },
    [ended],
  );

  /** Back to an empty form (the new piece was deleted from the history). */
  const reset = useCallback(() => {
    handle.current?.close();
    handle.current = null;
    setState(IDLE);
  }, []);

  return { state, running: state.phase === 'starting' || state.phase === 'waiting' || state.phase === 'making', generate, reset };
}
