// Loads one piece of data for a view and tracks loading / error, with reload(). Stale answers
// (from an earlier reload, or after unmount) are dropped.
import { useCallback, useEffect, useRef, useState } from 'react';

export type Resource<T> =
  | { status: 'loading'; data: T | undefined; error: undefined; reload: () => void }
  | { status: 'ready'; data: T; error: undefined; reload: () => void }
  | { status: 'error'; data: T | undefined; error: unknown; reload: () => void };

export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[] = []): Resource<T> & { setData: (next: T) => void } {
  const [state, setState] = useState<{ status: 'loading' | 'ready' | 'error'; data: T | undefined; error: unknown }>({
    status: 'loading',
    data: undefined,
    error: undefined,
  });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ status: 'loading', data: s.data, error: undefined }));
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data, error: undefined });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState((s) => ({ status: 'error', data: s.data, error }));
      },
    );
    return () => controller.abort();
  }, [attempt, ...deps]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((data: T) => setState({ status: 'ready', data, error: undefined }), []);
  return { ...state, reload, setData } as Resource<T> & { setData: (next: T) => void };
}
