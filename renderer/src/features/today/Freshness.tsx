// The "as of" line and the stale badge every Today block shows.
import type { ReactElement } from 'react';
import { asOf } from './as-of';

export function Freshness({ fetchedAt, ageSeconds, stale, lastError }: { fetchedAt: string | null; ageSeconds: number | null; stale: boolean; lastError?: string | null }): ReactElement {
  return (
    <p className="today-fresh muted" data-testid="as-of">
      {asOf(fetchedAt, ageSeconds)}
      {stale ? (
        <span className="badge badge--warn today-fresh__badge" title={lastError ?? 'The last refresh did not succeed; this is the last good copy.'}>
          Not up to date
        </span>
      ) : null}
    </p>
  );
}
