// On an admin's Home while downloads have failed for good: how many, what the first one says (a
// sentence with a next step), Retry all, and a link to Downloads. Goes away once none is left.
// Nothing while it loads or when the queue cannot be read (Downloads itself says why).
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { useJobsStatus, useRetryAllFailed } from '../downloads';

/** Looked at less often than the Downloads page does: Home only needs to know that some failed. */
const HOME_POLL_MS = 30_000;

export function FailedDownloads(): ReactElement | null {
  const status = useJobsStatus(HOME_POLL_MS);
  const retryAll = useRetryAllFailed();
  const [error, setError] = useState<string | null>(null);
  const failed = status.data?.jobs.filter((j) => j.state === 'failed') ?? [];
  if (!failed.length) return null;
  const first = failed[0]!;
  return (
    <section className="card finish-setup" aria-labelledby="failed-downloads-title" data-testid="failed-downloads">
      <h2 id="failed-downloads-title" className="finish-setup__title">
        {failed.length === 1 ? `${first.label} could not be downloaded` : `${failed.length} downloads could not finish`}
      </h2>
      <p className="finish-setup__intro">{failed.length === 1 ? first.lastError : `${first.label}: ${first.lastError ?? 'it failed.'}`}</p>
      <FormError message={error} />
      <div className="actions">
        <button
          type="button"
          className="btn btn--primary btn--compact"
          disabled={retryAll.isPending}
          onClick={() => {
            setError(null);
            retryAll.mutate(undefined, { onError: (err) => setError(errorMessage(err)) });
          }}
        >
          {retryAll.isPending ? <Spinner size={18} /> : <Icon name="refresh" size={18} />}
          {failed.length === 1 ? 'Retry' : 'Retry all'}
        </button>
        <Link className="btn btn--secondary btn--compact" to="/downloads">
          Open Downloads
        </Link>
      </div>
    </section>
  );
}
