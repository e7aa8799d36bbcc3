// A followed team's badge (served by Hearth from its cache; hidden when it cannot be shown) and
// today's matches of the followed teams, a match being played marked Live with its score.
import type { ReactElement } from 'react';
import type { Match } from '../../../../server/modules/today/schema.js';
import { matchLine } from './as-of';
import { useSportsToday } from './queries';

export function TeamBadge({ url }: { url: string | null }): ReactElement | null {
  if (!url) return null;
  // decorative: the team's name is always written beside it
  return <img className="today-badge" src={url} alt="" width={20} height={20} loading="lazy" onError={(e) => (e.currentTarget.hidden = true)} />;
}

function MatchLine({ m }: { m: Match }): ReactElement {
  return (
    <>
      {m.live ? <span className="badge badge--error">Live{m.status ? ` · ${m.status}` : ''}</span> : null} {matchLine(m)}
    </>
  );
}

/** Today's matches of the followed teams; `compact` for the home widget (nothing said while loading or when there are none). */
export function TodayMatches({ compact = false }: { compact?: boolean }): ReactElement | null {
  const today = useSportsToday();
  const d = today.data;
  if (!d) {
    if (compact) return null;
    return <p className="muted">{today.error ? 'Today’s matches could not be looked up.' : 'Looking up today’s matches…'}</p>;
  }
  if (d.matches.length === 0) return compact ? null : <p className="muted">{d.error ?? 'No matches today for the teams the household follows.'}</p>;
  return (
    <ul className={compact ? 'widget__items' : 'today-otd__items'} aria-label="Today’s matches">
      {d.matches.map((m) => (
        <li key={m.id}>
          {compact ? <strong>Today: </strong> : null}
          <MatchLine m={m} />
          {d.stale ? <span className="badge badge--warn"> Not up to date</span> : null}
        </li>
      ))}
    </ul>
  );
}
