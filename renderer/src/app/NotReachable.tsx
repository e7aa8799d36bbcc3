// "Hearth is not reachable": shown instead of the browser's error page when the web app opens
// (from the home screen, through the service worker's cached shell) or keeps running while the
// Hearth computer does not answer. It asks again by itself — after 2 s, then 4, 8, 16 and every 30 s,
// and at once when the device is back online or the tab is shown again — and goes away when Hearth
// answers; Try again asks at once.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { ApiError } from '../api/client';
import { Icon, Spinner } from '../ui/icons';
import './not-reachable.css';

/** Whether an error means no answer at all (off, asleep, another network), not an HTTP error. */
export const isUnreachable = (err: unknown) => err instanceof ApiError && err.code === 'network_error';

/** The first automatic retry, and the longest wait between two. */
export const RETRY_FIRST_MS = 2_000;
export const RETRY_MAX_MS = 30_000;

/**
 * `onRetry` asks Hearth once and settles when it has its answer (the screen's owner removes the
 * screen if Hearth answered). `over`: drawn over the running app (its pages and unsent form text
 * stay underneath).
 */
export function NotReachable({ onRetry, over = false }: { onRetry: () => Promise<void> | void; over?: boolean }): ReactElement {
  const [busy, setBusy] = useState(false);
  const retryNow = useRef<(manual: boolean) => void>(() => undefined);
  const latest = useRef(onRetry);
  latest.current = onRetry;

  useEffect(() => {
    let stopped = false;
    let running = false;
    let delay = RETRY_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => attempt(false), delay);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    };
    const attempt = (manual: boolean) => {
      if (running || stopped) return;
      running = true;
      clearTimeout(timer);
      if (manual) setBusy(true);
      void Promise.resolve()
        .then(() => latest.current())
        .catch(() => undefined)
        .finally(() => {
          running = false;
          if (stopped) return;
          if (manual) setBusy(false);
          schedule();
        });
    };
    // back on the network or back in view: ask at once, and start the waits from the beginning
    const fresh = () => {
      delay = RETRY_FIRST_MS;
      attempt(false);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') fresh();
    };
    retryNow.current = attempt;
    schedule();
    window.addEventListener('online', fresh);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener('online', fresh);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  return (
    <div className={over ? 'center-screen not-reachable not-reachable--over' : 'center-screen not-reachable'} data-testid="not-reachable">
      <div className="card card--narrow" role="alert">
        <Icon name="flame" size={40} className="brand__mark" />
        <h1 className="not-reachable__title">Hearth is not reachable</h1>
        <p>This phone or laptop cannot reach the Hearth computer right now, so nothing can be opened or saved.</p>
        <p className="muted">Check that the Hearth computer is switched on and awake, and that this device is on the same Wi-Fi as it. Hearth keeps trying by itself and carries on as soon as it answers.</p>
        <button type="button" className="btn btn--primary btn--wide" disabled={busy} onClick={() => retryNow.current(true)}>
          {busy ? <Spinner size={20} /> : <Icon name="refresh" size={20} />}
          Try again
        </button>
      </div>
    </div>
  );
}
