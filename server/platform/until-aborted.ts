/**
 * Waits for `work`, but not past `signal`: the answer is the work's own, unless the signal aborts
 * first, and then it rejects at once with `signal.reason` (or `reason(signal.reason)` when given).
 *
 * For work that may never settle once it is cancelled (a Playwright page whose context is closing,
 * a provider that ignores the signal, a worker that is being stopped): nobody waits for it any
 * more, and a later failure of the work left behind is swallowed rather than reported as an
 * unhandled rejection. `work` may be a function, which is then not started at all when the signal
 * has already aborted. Without a signal it is simply the work.
 */
export function untilAborted<T>(
  work: PromiseLike<T> | (() => PromiseLike<T>),
  signal: AbortSignal | undefined,
  reason: (signalReason: unknown) => unknown = (r) => r,
): Promise<T> {
  const start = () => Promise.resolve(typeof work === 'function' ? work() : work);
  if (!signal) return start();
  if (signal.aborted) {
    if (typeof work !== 'function') Promise.resolve(work).catch(() => undefined);
    return Promise.reject(reason(signal.reason));
  }
  let onAbort = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(reason(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  let running: Promise<T>;
  try {
    running = start();
  } catch (err) {
    signal.removeEventListener('abort', onAbort);
    return Promise.reject(err);
  }
  running.catch(() => undefined);
  return Promise.race([running, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
