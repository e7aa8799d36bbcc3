// /watch/films/:id (issue 35): one film, from where its id says (Plex's catalogue, TMDB or the
// household's Plex library): the poster Hearth keeps, what it is, "In your Plex — Play" when the
// household's Plex has it (matched by its ids; Play opens it in Hearth's Media player), and the
// member's watchlist button, which says when the copy on their own Plex watchlist did not work.
import type { ReactElement } from 'react';
import { useParams } from 'react-router';
import { IconButton } from '../../ui/IconButton';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { PlexCopyNote, TmdbCredit } from './film-sections';
import { useAddFilm, useFilm, useRemoveFilm, type MovieResponse } from './films-queries';
import { TitleHead } from './parts';
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
      <TitleHead
        posterUrl={movie.posterUrl}
        facts={facts}
        inPlex={inPlex ? { ratingKey: inPlex.ratingKey, playable: true } : null}
        watchlist={{ on: data.onWatchlist, busy, onToggle: toggle, status: add.isSuccess ? 'Added to your watchlist.' : remove.isSuccess ? 'Removed from your watchlist.' : '' }}
        failed={failed}
        summary={movie.overview}
      >
        <PlexCopyNote message={add.data?.plexMessage ?? null} />
      </TitleHead>
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
