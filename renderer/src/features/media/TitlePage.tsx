// One title of the household's Plex: poster, summary, its seasons or episodes, and what the member can
// do with it — play it in the browser (films, through Hearth's stream proxy), put it on their own Plex
// watchlist, mark it watched or not. Both actions use the member's own linked account; a refusal
// (not linked, no longer accepted, Plex does not know the title) is the server's sentence beside the
// button, never a code.
import type { ReactElement } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useAction } from '../../api/useAction';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { itemSubtitle, itemTitle, Poster } from './parts';
import { MEDIA_WRITES, playHref, setOnWatchlist, setWatched, titleHref, useTitle, type MetaResponse } from './queries';
import './media.css';

const minutes = (ms: number | null) => (ms ? `${Math.round(ms / 60_000)} min` : null);

export function TitlePage(): ReactElement {
  const { ratingKey = '' } = useParams();
  const title = useTitle(ratingKey);
  usePageTitle(title.data ? itemTitle(title.data.item) : 'Media');
  return (
    <section className="page media-page" aria-labelledby="media-title-heading">
      <Link to="/media" className="btn btn--ghost btn--compact media-back">
        <Icon name="back" size={20} />
        Media
      </Link>
      {!title.data ? (
        title.error ? (
          <ErrorState title={title.error instanceof ApiError && title.error.status === 404 ? 'This title is not here' : 'This title did not load'} error={title.error} onRetry={() => void title.refetch()} />
        ) : (
          <LoadingState label="Loading the title…" />
        )
      ) : (
        <TitleView meta={title.data} />
      )}
    </section>
  );
}

function TitleView({ meta }: { meta: MetaResponse }): ReactElement {
  const { item, children, onWatchlist } = meta;
  const { busy, error, notice, act } = useAction({ invalidates: MEDIA_WRITES });
  const details = [item.kind === 'episode' && item.showTitle ? item.showTitle : null, item.year ? String(item.year) : null, minutes(item.durationMs)].filter(Boolean).join(' · ');
  const canWatchlist = item.route?.watchlistable === true && onWatchlist !== null;
  return (
    <article className="media-title">
      <Poster item={item} size="large" />
      <div className="media-title__body">
        <h1 id="media-title-heading" className="page__title">
          {item.kind === 'episode' ? `S${item.season ?? '?'} E${item.episode ?? '?'} · ${item.title}` : itemTitle(item)}
        </h1>
        {details ? <p className="muted">{details}</p> : null}
        {item.viewOffsetMs && item.durationMs && !item.watched ? <p className="muted">{itemSubtitle(item)}</p> : null}
        {item.summary ? <p className="media-title__summary">{item.summary}</p> : null}
        <div className="actions media-title__actions">
          {item.playable ? (
            <Link className="btn btn--primary" to={playHref(item.ratingKey)}>
              <Icon name="play" size={20} />
              {item.viewOffsetMs && !item.watched ? 'Resume' : 'Play'}
            </Link>
          ) : null}
          {canWatchlist ? (
            <button
              type="button"
              className="btn btn--secondary"
              aria-pressed={onWatchlist}
              disabled={busy !== null}
              onClick={() => void act('watchlist', () => setOnWatchlist(item.ratingKey, onWatchlist).then((r) => (r.onWatchlist ? 'Added to your watchlist.' : 'Taken off your watchlist.')))}
            >
              <Icon name={onWatchlist ? 'check' : 'plus'} size={20} />
              {busy === 'watchlist' ? 'Saving…' : onWatchlist ? 'On my watchlist' : 'Add to my watchlist'}
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn--secondary"
            aria-pressed={item.watched}
            disabled={busy !== null}
            onClick={() => void act('watched', () => setWatched(item.ratingKey, !item.watched).then(() => (item.watched ? 'Marked as not watched.' : 'Marked as watched.')))}
          >
            <Icon name={item.watched ? 'check' : 'eye'} size={20} />
            {busy === 'watched' ? 'Saving…' : item.watched ? 'Watched' : 'Mark as watched'}
          </button>
        </div>
        <p className="media-title__notice" role="status" aria-live="polite">
          {notice ?? ''}
        </p>
        {error ? (
          <p className="banner banner--error" role="alert">
            <Icon name="error" size={22} />
            <span>{error.message}</span>
          </p>
        ) : null}
      </div>
      {children.length > 0 ? (
        <section className="media-children" aria-labelledby="media-children-title">
          <h2 id="media-children-title" className="media-rail__title">
            {item.kind === 'show' ? 'Seasons' : 'Episodes'}
          </h2>
          <ul className="media-children__list">
            {children.map((c) => (
              <li key={c.ratingKey}>
                <Link className="media-child" to={titleHref(c.ratingKey)}>
                  <span className="media-child__title">{c.kind === 'episode' ? `${c.episode ?? ''}. ${c.title}` : c.title}</span>
                  {c.watched ? (
                    <span className="media-child__badge">
                      <Icon name="check" size={16} /> Watched
                    </span>
                  ) : c.viewOffsetMs ? (
                    <span className="muted">{itemSubtitle(c)}</span>
                  ) : null}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
