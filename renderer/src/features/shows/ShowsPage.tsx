// /shows (issue 35): TV. Search TVmaze and put a show on your watchlist; your watchlist (what is
// next, how many episodes you ticked, remove); and what airs in the next weeks from it, grouped by
// day in the household's time. Each show opens its guide (ShowPage). Only the member sees their
// watchlist and ticks.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { SearchForm, useSubmittedSearch } from '../../ui/SearchForm';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { dayLabel, dayOf, episodeCode, householdToday, timeOf, whenLabel } from './household-time';
import { Poster, TvmazeCredit } from './parts';
import { showHref, useAddToWatchlist, useRemoveFromWatchlist, useSchedule, useShowSearch, useWatchlist, type ScheduleResponse, type WatchlistEntry } from './queries';
import './shows.css';

const years = (premiered: string | null, ended: string | null) => (premiered ? `${premiered.slice(0, 4)}–${ended ? ended.slice(0, 4) : ''}` : null);

function SearchResults({ q, watchlist }: { q: string; watchlist: readonly WatchlistEntry[] }): ReactElement | null {
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
      <ul className="shows-list" aria-label="Search results">
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

function Watchlist({ shows }: { shows: readonly WatchlistEntry[] }): ReactElement {
  const remove = useRemoveFromWatchlist();
  if (shows.length === 0)
    return (
      <EmptyState icon="tv" title="Your watchlist is empty">
        Search for a show above and add it: its next episodes then show here and in the schedule.
      </EmptyState>
    );
  return (
    <>
      <FormError message={remove.isError ? `Could not remove that show. ${errorMessage(remove.error)}` : null} />
      <ul className="shows-list" aria-label="Your watchlist" data-testid="watchlist">
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

function Schedule({ schedule }: { schedule: ScheduleResponse }): ReactElement {
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

export function ShowsPage(): ReactElement {
  usePageTitle('Shows');
  const search = useSubmittedSearch();
  const { q } = search;
  const watchlist = useWatchlist();
  const schedule = useSchedule();

  return (
    <section className="page shows" aria-labelledby="shows-title">
      <PageHeader titleId="shows-title" title="Shows" description="TV you follow: your watchlist, what airs next, and the episodes you have seen. Only you see them." />

      <section className="shows-section" aria-labelledby="shows-find">
        <h2 id="shows-find" className="shows-section__title">
          Find a show
        </h2>
        <SearchForm className="shows-search" id="shows-search" label="Search TV shows" placeholder="A show’s name" search={search} />
        <p className="muted shows-section__lead">Searches TVmaze: the words you type are sent to TVmaze.</p>
        <SearchResults q={q} watchlist={watchlist.data ?? []} />
      </section>

      <section className="shows-section" aria-labelledby="shows-watchlist">
        <h2 id="shows-watchlist" className="shows-section__title">
          Your watchlist
        </h2>
        {watchlist.isPending ? (
          <LoadingState label="Loading your watchlist…" />
        ) : watchlist.isError ? (
          <ErrorState title="Your watchlist did not load" error={watchlist.error} onRetry={() => void watchlist.refetch()} />
        ) : (
          <Watchlist shows={watchlist.data} />
        )}
      </section>

      <section className="shows-section" aria-labelledby="shows-upcoming">
        <h2 id="shows-upcoming" className="shows-section__title">
          Coming up
        </h2>
        <p className="muted shows-section__lead">The next 60 days of your watchlist, in the household’s time.</p>
        {schedule.isPending ? (
          <LoadingState label="Loading the schedule…" />
        ) : schedule.isError ? (
          <ErrorState title="The schedule did not load" error={schedule.error} onRetry={() => void schedule.refetch()} />
        ) : (
          <Schedule schedule={schedule.data} />
        )}
      </section>

      <TvmazeCredit />
    </section>
  );
}
