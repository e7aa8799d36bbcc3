// One picture on its way, followed over its event stream: POST /generate, POST /edit (multipart) or,
// after a reload, GET /artifacts/:id/stream for the member's running job. Holds what the page shows:
// the place in the household's queue while waiting, the step bar, the latest preview frame (base64
// JPEG) while the engine draws, the finished picture, or the server's sentence when it failed. Cancel
// asks the server (POST /artifacts/:id/cancel) and the stream then ends; the page never shows a
// picture as coming that is not.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { openGetStream, openPostStream, type PostStreamHandle } from '../../api/sse';
import { cancelArtifact, useImageJobEnded } from './queries';
import { artifactApi, IMAGE_API, type Artifact, type ImageEvents } from './types';

export type JobPhase = 'idle' | 'starting' | 'queued' | 'drawing' | 'done' | 'cancelled' | 'failed';

export interface JobState {
  phase: JobPhase;
  id: string | null;
  /** 1-based place in the household's queue while waiting. */
  position: number | null;
  current: number;
  total: number;
  /** data: URL of the latest preview frame. */
  preview: string | null;
  artifact: Artifact | null;
  error: string | null;
  isAdult: boolean;
}

const IDLE: JobState = { phase: 'idle', id: null, position: null, current: 0, total: 0, preview: null, artifact: null, error: null, isAdult: false };

export const CANCELLED_CODES = new Set(['cancelled', 'job_cancelled']);

export interface ImageJob {
  state: JobState;
  running: boolean;
  generate: (body: unknown) => void;
  edit: (form: FormData) => void;
  /** Follows a job already on its way (after a reload). */
  attach: (artifact: Artifact) => void;
  cancel: () => Promise<void>;
  cancelling: boolean;
  reset: () => void;
}

export function useImageJob(): ImageJob {
  const jobEnded = useImageJobEnded();
  const [state, setState] = useState<JobState>(IDLE);
  const [cancelling, setCancelling] = useState(false);
  const handle = useRef<PostStreamHandle | null>(null);
  const cancelled = useRef(false);

  useEffect(() => () => handle.current?.close(), []);

  const follow = useCallback(
    (open: (handlers: Parameters<typeof openPostStream<ImageEvents>>[2]) => PostStreamHandle, initial: JobState) => {
      handle.current?.close();
      cancelled.current = false;
      setCancelling(false);
      setState(initial);
      const h = open({
        start: (d) => setState((s) => ({ ...s, phase: d.position ? 'queued' : 'drawing', id: d.id, position: d.position, isAdult: d.isAdult, total: d.artifact.stepTotal || s.total, artifact: null })),
        step: (d) =>
          setState((s) => ({
            ...s,
            id: d.id,
            phase: d.current === 0 && d.position ? 'queued' : 'drawing',
            position: d.position,
            current: d.current,
            total: d.total || s.total,
          })),
        preview: (d) => setState((s) => ({ ...s, phase: 'drawing', position: null, preview: `data:image/jpeg;base64,${d.jpeg}`, current: Math.max(s.current, d.step) })),
        done: (d) => {
          const a = d.artifact;
          const phase: JobPhase = a.state === 'ready' ? 'done' : a.state === 'cancelled' || cancelled.current ? 'cancelled' : 'failed';
          setState((s) => ({ ...s, id: a.id, phase, artifact: a.state === 'ready' ? a : null, error: phase === 'failed' ? (a.error ?? 'The picture could not be made. Please try again.') : null, current: a.state === 'ready' ? s.total : s.current }));
        },
        error: (d) => {
          const wasCancel = CANCELLED_CODES.has(d.code) || cancelled.current;
          setState((s) => ({ ...s, phase: wasCancel ? 'cancelled' : 'failed', error: wasCancel ? null : d.message }));
        },
      });
      handle.current = h;
      h.done
        .then(() => {
          // a stream that ended without its last word: look at the picture once more before saying anything
          setState((s) => (s.phase === 'queued' || s.phase === 'drawing' || s.phase === 'starting' ? { ...s, phase: cancelled.current ? 'cancelled' : 'failed', error: cancelled.current ? null : 'The picture stopped before it was finished. Please try again.' } : s));
        })
        .catch((err: unknown) => {
          const wasCancel = cancelled.current || (err instanceof ApiError && CANCELLED_CODES.has(err.code));
          setState((s) => ({ ...s, phase: wasCancel ? 'cancelled' : 'failed', error: wasCancel ? null : errorMessage(err) }));
        })
        .finally(() => {
          setCancelling(false);
          jobEnded();
        });
    },
    [jobEnded],
  );

  const generate = useCallback((body: unknown) => follow((h) => openPostStream<ImageEvents>(`${IMAGE_API}/generate`, body, h, { closeOn: ['done', 'error'] }), { ...IDLE, phase: 'starting' }), [follow]);
  const edit = useCallback((form: FormData) => follow((h) => openPostStream<ImageEvents>(`${IMAGE_API}/edit`, form, h, { closeOn: ['done', 'error'] }), { ...IDLE, phase: 'starting' }), [follow]);
  const attach = useCallback(
    (a: Artifact) =>
      follow((h) => openGetStream<ImageEvents>(`${artifactApi(a.id)}/stream`, h, { closeOn: ['done', 'error'] }), {
        ...IDLE,
        phase: a.state === 'queued' ? 'queued' : 'drawing',
        id: a.id,
        position: a.position,
        current: a.stepCurrent,
        total: a.stepTotal,
        isAdult: a.isAdult,
      }),
    [follow],
  );

  const cancel = useCallback(async () => {
    const id = state.id;
    if (!id) {
      handle.current?.close();
      setState((s) => ({ ...s, phase: 'cancelled' }));
      return;
    }
    cancelled.current = true;
    setCancelling(true);
    try {
      await cancelArtifact(id);
    } catch (err) {
      cancelled.current = false;
      setCancelling(false);
      throw err;
    }
  }, [state.id]);

  const reset = useCallback(() => {
    handle.current?.close();
    handle.current = null;
    setState(IDLE);
  }, []);

  const running = state.phase === 'starting' || state.phase === 'queued' || state.phase === 'drawing';
  return { state, running, generate, edit, attach, cancel, cancelling, reset };
}
