// "Hearth is not reachable": shown instead of the browser's error page when the web app opens
// (from the home screen, through the service worker's cached shell) or keeps running while the
// Hearth computer does not answer. Try again asks the server once more.
import { useState, type ReactElement } from 'react';
import { ApiError } from '../api/client';
import { Icon, Spinner } from '../ui/icons';
import './not-reachable.css';

/** Whether an error means no answer at all (off, asleep, another network), not an HTTP error. */
export const isUnreachable = (err: unknown) => err instanceof ApiError && err.code === 'network_error';

/** `over`: drawn over the running app (its pages and unsent form text stay underneath). */
export function NotReachable({ onRetry, over = false }: { onRetry: () => Promise<void> | void; over?: boolean }): ReactElement {
  const [busy, setBusy] = useState(false);
  return (
    <div className={over ? 'center-screen not-reachable not-reachable--over' : 'center-screen not-reachable'} data-testid="not-reachable">
      <div className="card card--narrow" role="alert">
        <Icon name="flame" size={40} className="brand__mark" />
        <h1 className="not-reachable__title">Hearth is not reachable</h1>
        <p>This phone or laptop cannot reach the Hearth computer right now, so nothing can be opened or saved.</p>
        <p className="muted">Check that the Hearth computer is switched on and awake, and that this device is on the same Wi-Fi as it. Then try again.</p>
        <button
          type="button"
          className="btn btn--primary btn--wide"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void Promise.resolve(onRetry()).finally(() => setBusy(false));
          }}
        >
          {busy ? <Spinner size={20} /> : <Icon name="refresh" size={20} />}
          Try again
        </button>
      </div>
    </div>
  );
}
