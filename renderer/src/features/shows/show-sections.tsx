// The Shows parts of the Watch page (issue 35): TVmaze search results with "add to watchlist",
// the member's show watchlist (what is next, how many episodes they have seen, remove), and what
// airs in the next weeks from it, grouped by day in the household's time. Each show opens its guide
// (ShowPage). Only the member sees their watchlist and ticks.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { dayLabel, dayOf, episodeCode, householdToday, timeOf, whenLabel } from './household-time';
import { Poster } from './parts';
import { showHref, useAddToWatchlist, useRemoveFromWatchlist, useShowSearch, type ScheduleResponse, type WatchlistEntry } from './queries';

const years = (premiered: string | null, ended: string | null) => (premiered ? `${premiered.slice(0, 4)}–${ended ? ended.slice(0, 4) : ''}` : null);

export function ShowResults({ q, watchlist }: { q: string; watchlist: readonly WatchlistEntry[] }): ReactElement | null {
  const search = useShowSearch(q);
  const add = useAddToWatchlist();
  if (!q) return null;
  if (search.isPending) return <LoadingState label="Searching TVmaze…" />;
  if (search.isError) return <ErrorState title="The search did not work" error={search.error} onRetry={() => void search.refetch()} />;
  if (search.data.length === 0) return <EmptyState title="No shows found">TVmaze knows no show called “{q}”. Try other words.</EmptyState>;
  const on = new Set(watchlist.map((w) => w.tvmazeId));
  return (
    <div className="shows-results">
      <FormError message={add.isError ? `Could not add that show. ${errorMessage(add.error)}` : null} />
      <ul className="shows-list" aria-label="Shows found">
        {search.data.map((s) => (
          <li key={s.tvmazeId} className="shows-row" aria-label={s.name}>
            <Poster url={s.imageUrl} />
            <div className="shows-row__words">
              <Link to={showHref(s.tvmazeId)} className="shows-row__title">
                {s.name}
              </Link>
              <span className="shows-row__meta">{[s.network, years(s.premiered, s.ended), s.status].filter(Boolean).join(' · ')}</span>
            </div>
            {on.has(s.tvmazeId) ? (
              <span className="badge badge--ok">On your watchlist</span>
            ) : (
              <button type="button" className="btn btn--primary btn--compact" disabled={add.isPending} onClick={() => add.mutate(s.tvmazeId)} aria-label={`Add ${s.name} to your watchlist`}>
                <Icon name="plus" size={20} />
                Watchlist
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ShowWatchlist({ shows }: { shows: readonly WatchlistEntry[] }): ReactElement {
  const remove = useRemoveFromWatchlist();
  if (shows.length === 0)
    return (
      <EmptyState icon="tv" title="No shows on your watchlist">
        Search for a show above and add it: its next episodes then show here and in Coming up.
      </EmptyState>
    );
  return (
    <>
      <FormError message={remove.isError ? `Could not remove that show. ${errorMessage(remove.error)}` : null} />
      <ul className="shows-list" aria-label="Your shows" data-testid="watchlist">
        {shows.map((s) => (
          <li key={s.tvmazeId} className="shows-row" aria-label={s.name}>
            <Poster url={s.imageUrl} />
            <div className="shows-row__words">
              <Link to={showHref(s.tvmazeId)} className="shows-row__title">
                {s.name}
              </Link>
              <span className="shows-row__meta">
                {s.nextEpisode ? `Next: ${episodeCode(s.nextEpisode.season, s.nextEpisode.number)}${s.nextEpisode.airsAt ? `, ${whenLabel(s.nextEpisode.airsAt)}` : ''}` : (s.status ?? 'No episode announced')}
              </span>
              {s.episodeCount !== null ? (
                <span className="shows-row__meta">
                  {s.watchedCount} of {s.episodeCount} episodes seen
                </span>
              ) : null}
            </div>
            <IconButton icon="trash" label="Remove" accessibleLabel={`Remove ${s.name} from your watchlist`} labelShown="never" tone="danger-ghost" disabled={remove.isPending} onClick={() => remove.mutate(s.tvmazeId)} />
          </li>
        ))}
      </ul>
    </>
  );
}

export function ShowSchedule({ schedule }: { schedule: ScheduleResponse }): ReactElement {
  const first = schedule.episodes[0];
  const today = first ? householdToday(first.airsAt) : '';
  const days = new Map<string, ScheduleResponse['episodes']>();
  for (const e of schedule.episodes) days.set(dayOf(e.airsAt), [...(days.get(dayOf(e.airsAt)) ?? []), e]);
  return (
    <div className="shows-schedule" data-testid="schedule">
      {schedule.unavailable.length > 0 ? (
        <p className="banner banner--warn">
          The guide of {schedule.unavailable.map((u) => u.name).join(', ')} could not be read just now, so {schedule.unavailable.length === 1 ? 'its' : 'their'} episodes are missing below.
        </p>
      ) : null}
      {schedule.episodes.length === 0 ? (
        <EmptyState title="Nothing announced">No episode of a show on your watchlist is announced for the next 60 days.</EmptyState>
      ) : (
        [...days].map(([day, episodes]) => (
          <section key={day} className="shows-day" aria-labelledby={`day-${day}`}>
            <h3 id={`day-${day}`} className="shows-day__title">
              {dayLabel(day, today)}
            </h3>
            <ul className="shows-day__list">
              {episodes.map((e) => (
                <li key={e.episodeId} className="shows-day__item">
                  <span className="shows-day__time">{timeOf(e.airsAt)}</span>
                  <span className="shows-day__what">
                    <Link to={showHref(e.tvmazeId)}>{e.showName}</Link> · {episodeCode(e.season, e.number)} {e.name}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
