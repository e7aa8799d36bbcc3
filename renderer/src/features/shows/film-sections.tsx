// The Films parts of the Watch page (issue 35): search results (from Plex's catalogue with the
// member's own Plex account, TMDB, or the household's Plex library: the answer says which), the
// member's film watchlist (and whether each entry is also on their own Plex watchlist), and, for
// admins, the TMDB token. After adding a film, what happened to its copy on Plex's watchlist is said.
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { filmHref, useAddFilm, useClearTmdbToken, useCopyFilmToPlex, useFilmSearch, useRemoveFilm, useSetTmdbToken, useTmdbStatus, type FilmSearchResponse, type FilmWatchlistEntry } from './films-queries';
import { Poster } from './parts';

const SEARCHED: Record<FilmSearchResponse['source'], string> = {
  plex: 'Searched Plex’s catalogue with your Plex account.',
  tmdb: 'Searched TMDB.',
  library: 'Searched the household’s Plex library.',
};
const NOTHING: Record<FilmSearchResponse['source'], string> = {
  plex: 'Plex’s catalogue knows no film called',
  tmdb: 'TMDB knows no film called',
  library: 'The household’s Plex has no film called',
};

/** TMDB's terms ask for this notice wherever its data is shown. */
export function TmdbCredit(): ReactElement {
  return (
    <p className="shows-credit muted">
      Film data from{' '}
      <a href="https://www.themoviedb.org" target="_blank" rel="noreferrer">
        TMDB
      </a>
      . This product uses the TMDB API but is not endorsed or certified by TMDB.
    </p>
  );
}

/** What became of the copy on the member's Plex watchlist, said after adding. */
export function PlexCopyNote({ message }: { message: string | null }): ReactElement {
  return (
    <p role="status" className={message ? 'banner banner--warn' : 'visually-hidden'}>
      {message ?? ''}
    </p>
  );
}

export function FilmResults({ q, watchlist }: { q: string; watchlist: readonly FilmWatchlistEntry[] }): ReactElement | null {
  const search = useFilmSearch(q);
  const add = useAddFilm();
  if (!q) return null;
  if (search.isPending) return <LoadingState label="Searching films…" />;
  if (search.isError) return <ErrorState title="The film search did not work" error={search.error} onRetry={() => void search.refetch()} />;
  const { source, results } = search.data;
  const on = new Set(watchlist.map((w) => w.id));
  return (
    <div className="shows-results">
      <p className="muted shows-section__lead">{SEARCHED[source]}</p>
      {results.length === 0 ? (
        <EmptyState title="No films found">
          {NOTHING[source]} “{q}”. Try other words.
        </EmptyState>
      ) : (
        <ul className="shows-list" aria-label="Films found">
          {results.map((m) => (
            <li key={m.id} className="shows-row" aria-label={m.title}>
              <Poster url={m.posterUrl} />
              <div className="shows-row__words">
                <Link to={filmHref(m.id)} className="shows-row__title">
                  {m.title}
                </Link>
                <span className="shows-row__meta">{m.year ?? 'Year not known'}</span>
              </div>
              {on.has(m.id) ? (
                <span className="badge badge--ok">On your watchlist</span>
              ) : (
                <button type="button" className="btn btn--primary btn--compact" disabled={add.isPending} onClick={() => add.mutate(m.id)} aria-label={`Add ${m.title} to your watchlist`}>
                  <Icon name="plus" size={20} />
                  Watchlist
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormError message={add.isError ? `Could not add that film. ${errorMessage(add.error)}` : null} />
      <PlexCopyNote message={add.data?.plexMessage ?? null} />
      {source === 'tmdb' ? <TmdbCredit /> : null}
    </div>
  );
}

const PLEX_COPY: Record<FilmWatchlistEntry['plex'], string | null> = {
  mirrored: 'Also on your Plex watchlist',
  failed: 'Not on your Plex watchlist: Plex did not take it',
  off: null,
};

export function FilmWatchlist({ movies }: { movies: readonly FilmWatchlistEntry[] }): ReactElement {
  const remove = useRemoveFilm();
  const copy = useCopyFilmToPlex();
  if (movies.length === 0)
    return (
      <EmptyState icon="tv" title="No films on your watchlist">
        Search for a film above and add it: it stays here until you take it off.
      </EmptyState>
    );
  return (
    <>
      <FormError message={remove.isError ? `Could not remove that film. ${errorMessage(remove.error)}` : copy.isError ? `Could not try again. ${errorMessage(copy.error)}` : null} />
      <PlexCopyNote message={copy.data?.plexMessage ?? null} />
      <ul className="shows-list" aria-label="Your films" data-testid="film-watchlist">
        {movies.map((m) => (
          <li key={m.id} className="shows-row" aria-label={m.title}>
            <Poster url={m.posterUrl} />
            <div className="shows-row__words">
              <Link to={filmHref(m.id)} className="shows-row__title">
                {m.title}
              </Link>
              <span className="shows-row__meta">{[m.year, PLEX_COPY[m.plex]].filter(Boolean).join(' · ')}</span>
            </div>
            {m.plex === 'failed' ? (
              <button type="button" className="btn btn--secondary btn--compact" disabled={copy.isPending} onClick={() => copy.mutate(m.id)} aria-label={`Put ${m.title} on your Plex watchlist again`}>
                Try again
              </button>
            ) : null}
            <IconButton icon="trash" label="Remove" accessibleLabel={`Remove ${m.title} from your watchlist`} labelShown="never" tone="danger-ghost" disabled={remove.isPending} onClick={() => remove.mutate(m.id)} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** For admins: the household's TMDB token, pasted once (never shown again) or removed. */
export function TmdbSetting(): ReactElement {
  const status = useTmdbStatus(true);
  const save = useSetTmdbToken();
  const clear = useClearTmdbToken();
  const [token, setToken] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(token.trim(), { onSuccess: () => setToken('') });
  };
  return (
    <section className="shows-section" aria-labelledby="watch-tmdb">
      <h2 id="watch-tmdb" className="shows-section__title">
        Film search with TMDB
      </h2>
      <p className="muted shows-section__lead">
        For members who have not linked Plex, films are searched in the household’s Plex library. With a TMDB token (free for non-commercial use, from your TMDB account’s API settings) they are searched on TMDB
        instead: the words they type are sent there.
      </p>
      {status.isPending ? (
        <LoadingState label="Reading the TMDB setting…" />
      ) : status.isError ? (
        <ErrorState title="The TMDB setting did not load" error={status.error} onRetry={() => void status.refetch()} />
      ) : status.data.configured ? (
        <div className="show-head__actions">
          <span className="badge badge--ok">TMDB token saved</span>
          <button type="button" className="btn btn--secondary" disabled={clear.isPending} onClick={() => clear.mutate()}>
            Remove the token
          </button>
        </div>
      ) : (
        <form className="shows-search" onSubmit={submit}>
          <TextField label="TMDB API Read Access Token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
          <button type="submit" className="btn btn--primary" disabled={!token.trim() || save.isPending}>
            Save
          </button>
        </form>
      )}
      <FormError message={save.isError ? `The token was not saved. ${errorMessage(save.error)}` : clear.isError ? `The token was not removed. ${errorMessage(clear.error)}` : null} />
    </section>
  );
}
