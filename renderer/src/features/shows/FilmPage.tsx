// /watch/films/:id (issue 35): one film, from where its id says (Plex's catalogue, TMDB or the
// household's Plex library): the poster Hearth keeps, what it is, "In your Plex — Play" when the
// household's Plex has it (matched by its ids; Play opens it in Hearth's Media player), and the
// member's watchlist button, which says when the copy on their own Plex watchlist did not work.
import type { ReactElement } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { playHref, titleHref } from '../media';
import { PlexCopyNote, TmdbCredit } from './film-sections';
import { useAddFilm, useFilm, useRemoveFilm, type MovieResponse } from './films-queries';
import { Poster } from './parts';
import './shows.css';

const FROM: Record<MovieResponse['source'], string | null> = { plex: 'Film details from Plex’s catalogue.', library: 'Film details from the household’s Plex.', tmdb: null };

function Film({ data }: { data: MovieResponse }): ReactElement {
  const { movie, inPlex } = data;
  const add = useAddFilm();
  const remove = useRemoveFilm();
  const facts = [movie.year, movie.runtimeMinutes ? `${movie.runtimeMinutes} min` : null, movie.genres.join(', ') || null].filter(Boolean).join(' · ');
  const busy = add.isPending || remove.isPending;
  const failed = add.error ?? remove.error;
  const toggle = () => {
    add.reset();
    remove.reset();
    if (data.onWatchlist) remove.mutate(movie.id);
    else add.mutate(movie.id);
  };
  return (
    <>
      <div className="show-head">
        <Poster url={movie.posterUrl} size="large" />
        <div className="show-head__words">
          {facts ? <p className="show-head__facts muted">{facts}</p> : null}
          {inPlex ? (
            <p className="show-head__plex">
              <span className="badge badge--accent">
                <Icon name="check" size={16} />
                In your Plex
              </span>{' '}
              <Link className="btn btn--primary btn--compact" to={playHref(inPlex.ratingKey)}>
                <Icon name="play" size={20} />
                Play
              </Link>{' '}
              <Link to={titleHref(inPlex.ratingKey)}>Open it in Media</Link>
            </p>
          ) : null}
          <div className="show-head__actions">
            <button type="button" className={data.onWatchlist ? 'btn btn--secondary' : 'btn btn--primary'} onClick={toggle} disabled={busy}>
              <Icon name={data.onWatchlist ? 'check' : 'plus'} size={20} />
              {data.onWatchlist ? 'On your watchlist' : 'Add to watchlist'}
            </button>
            <span role="status" className="muted">
              {add.isSuccess ? 'Added to your watchlist.' : remove.isSuccess ? 'Removed from your watchlist.' : ''}
            </span>
          </div>
          <PlexCopyNote message={add.data?.plexMessage ?? null} />
          <FormError message={failed ? `That did not change. ${errorMessage(failed)}` : null} />
          {movie.overview ? <p className="show-head__summary">{movie.overview}</p> : null}
        </div>
      </div>
      {data.source === 'tmdb' ? <TmdbCredit /> : <p className="shows-credit muted">{FROM[data.source]}</p>}
    </>
  );
}

export function FilmPage(): ReactElement {
  const { id = '' } = useParams();
  const film = useFilm(id);
  const title = film.data ? `${film.data.movie.title}${film.data.movie.year ? ` (${film.data.movie.year})` : ''}` : null;
  usePageTitle(title ?? 'Watch');
  const back = <IconButton icon="back" label="Watch" to="/watch" tone="ghost" />;
  return (
    <section className="page shows" aria-labelledby="film-title">
      <PageHeader titleId="film-title" title={title ?? (film.isPending ? 'Loading the film…' : 'Film')} actions={back} />
      {film.isPending ? <LoadingState label="Loading the film…" /> : film.isError ? <ErrorState title="This film did not load" error={film.error} onRetry={() => void film.refetch()} /> : <Film data={film.data} />}
    </section>
  );
}
