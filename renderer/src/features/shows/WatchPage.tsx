// /watch (issue 35): shows and films together. One search asks both (shows on TVmaze; films in
// Plex's catalogue with the member's own Plex account, TMDB, or the household's Plex library), the
// member's two watchlists, and what airs in the next weeks from their shows. A show opens its guide
// (ShowPage), a film its page (FilmPage), each with "In your Plex" when the household's Plex has it.
// Admins also find the TMDB token here.
import type { ReactElement } from 'react';
import { useUser } from '../../app/session';
import { PageHeader } from '../../ui/PageHeader';
import { SearchForm, useSubmittedSearch } from '../../ui/SearchForm';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { FilmResults, FilmWatchlist, TmdbSetting } from './film-sections';
import { useFilmWatchlist } from './films-queries';
import { TvmazeCredit } from './parts';
import { useSchedule, useWatchlist } from './queries';
import { ShowResults, ShowSchedule, ShowWatchlist } from './show-sections';
import './shows.css';

export function WatchPage(): ReactElement {
  usePageTitle('Watch');
  const isAdmin = useUser().role === 'admin';
  const search = useSubmittedSearch();
  const { q } = search;
  const shows = useWatchlist();
  const films = useFilmWatchlist();
  const schedule = useSchedule();

  return (
    <section className="page shows" aria-labelledby="watch-title">
      <PageHeader titleId="watch-title" title="Watch" description="Shows and films: your watchlists, what airs next, and what the household’s Plex already has. Only you see your watchlists." />

      <section className="shows-section" aria-labelledby="watch-find">
        <h2 id="watch-find" className="shows-section__title">
          Find a show or a film
        </h2>
        <SearchForm className="shows-search" id="watch-search" label="Search shows and films" placeholder="A show’s or film’s name" search={search} />
        <p className="muted shows-section__lead">The words you type are sent to TVmaze for shows, and for films to Plex (with your own Plex account) or TMDB when Hearth uses them.</p>
        {q ? (
          <div className="watch-columns">
            <section className="shows-section" aria-labelledby="watch-found-shows">
              <h3 id="watch-found-shows" className="watch-subtitle">
                Shows
              </h3>
              <ShowResults q={q} watchlist={shows.data ?? []} />
            </section>
            <section className="shows-section" aria-labelledby="watch-found-films">
              <h3 id="watch-found-films" className="watch-subtitle">
                Films
              </h3>
              <FilmResults q={q} watchlist={films.data ?? []} />
            </section>
          </div>
        ) : null}
      </section>

      <section className="shows-section" aria-labelledby="watch-watchlist">
        <h2 id="watch-watchlist" className="shows-section__title">
          Your watchlist
        </h2>
        <div className="watch-columns">
          <section className="shows-section" aria-labelledby="watch-my-shows">
            <h3 id="watch-my-shows" className="watch-subtitle">
              Shows
            </h3>
            {shows.isPending ? (
              <LoadingState label="Loading your shows…" />
            ) : shows.isError ? (
              <ErrorState title="Your shows did not load" error={shows.error} onRetry={() => void shows.refetch()} />
            ) : (
              <ShowWatchlist shows={shows.data} />
            )}
          </section>
          <section className="shows-section" aria-labelledby="watch-my-films">
            <h3 id="watch-my-films" className="watch-subtitle">
              Films
            </h3>
            {films.isPending ? (
              <LoadingState label="Loading your films…" />
            ) : films.isError ? (
              <ErrorState title="Your films did not load" error={films.error} onRetry={() => void films.refetch()} />
            ) : (
              <FilmWatchlist movies={films.data} />
            )}
          </section>
        </div>
      </section>

      <section className="shows-section" aria-labelledby="watch-upcoming">
        <h2 id="watch-upcoming" className="shows-section__title">
          Coming up
        </h2>
        <p className="muted shows-section__lead">The next 60 days of your shows, in the household’s time.</p>
        {schedule.isPending ? (
          <LoadingState label="Loading the schedule…" />
        ) : schedule.isError ? (
          <ErrorState title="The schedule did not load" error={schedule.error} onRetry={() => void schedule.refetch()} />
        ) : (
          <ShowSchedule schedule={schedule.data} />
        )}
      </section>

      {isAdmin ? <TmdbSetting /> : null}
      <TvmazeCredit />
    </section>
  );
}
