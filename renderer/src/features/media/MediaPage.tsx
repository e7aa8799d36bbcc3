// The Media page: the household's Plex as this member sees it. Continue watching (their own), recently
// added (new seasons and episodes noticed), the server's hubs, and what is playing in the house now.
// Before any of that, the page says plainly what stands in the way: Plex not connected (an admin can
// connect it), the member's own account not linked or no longer accepted (a card to link it), or the
// server not answering (a sentence, the rails stay empty).
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { MediaCard, Rail } from './parts';
import { LINK_HREF, useFeed, useHubs, useMediaStatus, useSessions, type MediaStatus } from './queries';
import './media.css';

export function MediaPage(): ReactElement {
  const status = useMediaStatus();
  return (
    <section className="page media-page" aria-labelledby="media-title">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="media-title" className="page__title">
            Media
          </h1>
          <p className="muted page__description">{status.data?.serverName ? `Films and shows on ${status.data.serverName}.` : 'The household’s films and shows.'}</p>
        </div>
      </div>
      {!status.data ? (
        status.error ? (
          <ErrorState title="Media did not load" error={status.error} onRetry={() => void status.refetch()} />
        ) : (
          <LoadingState label="Looking for the household’s Plex…" />
        )
      ) : (
        <MediaBody status={status.data} />
      )}
    </section>
  );
}

function MediaBody({ status }: { status: MediaStatus }): ReactElement {
  if (!status.configured) {
    return (
      <EmptyState
        icon="play"
        title="The household’s Plex is not connected yet"
        action={
          status.isAdmin ? (
            <Link className="btn btn--primary" to="/admin/media">
              Connect it in Admin
            </Link>
          ) : undefined
        }
      >
        {status.isAdmin ? 'Connect the household’s Plex and everyone can see its films and shows here.' : 'An admin can connect the household’s Plex. Then its films and shows appear here.'}
      </EmptyState>
    );
  }
  const ready = status.linked && !status.linkRevoked;
  return (
    <>
      {!ready ? <LinkCard revoked={status.linkRevoked} /> : null}
      {status.serverProblem || !status.reachable ? (
        <p className="banner banner--warn" role="status">
          <Icon name="warn" size={22} />
          <span>{status.serverProblem ?? 'The household’s media server is not answering right now. Try again in a little while.'}</span>
        </p>
      ) : null}
      {ready ? <Feeds /> : null}
    </>
  );
}

function LinkCard({ revoked }: { revoked: boolean }): ReactElement {
  return (
    <div className="card media-link-card" data-testid="media-link-card">
      <p className="media-link-card__title">{revoked ? 'Link your Plex account again' : 'Link your Plex account'}</p>
      <p className="muted">
        {revoked
          ? 'Plex no longer accepts your link (it may have been signed out). Link it again to see what you were watching.'
          : 'Media shows the household’s films and shows once you link your own Plex account. It also keeps your watchlist and marks what you have seen.'}
      </p>
      <Link className="btn btn--primary" to={LINK_HREF}>
        {revoked ? 'Link again' : 'Link my Plex account'}
      </Link>
    </div>
  );
}

/** Said when the member's content level kept a title out of one of the feeds (issue 32). */
const HIDDEN_SENTENCE = 'Some titles are hidden by your content settings.';

function Feeds(): ReactElement {
  const onDeck = useFeed('ondeck', true);
  const recent = useFeed('recent', true);
  const hubs = useHubs(true);
  const sessions = useSessions(true);
  const hidden = [onDeck.data, recent.data, hubs.data, sessions.data].some((answer) => (answer?.hiddenByContent ?? 0) > 0);
  return (
    <div className="media-feeds">
      {hidden ? (
        <p className="muted" data-testid="media-hidden">
          {HIDDEN_SENTENCE}
        </p>
      ) : null}
      <Rail id="ondeck" title="Continue watching" loading={onDeck.isPending} error={onDeck.error} empty="Nothing half-watched. Start something and it waits for you here." count={onDeck.data?.items.length ?? 0}>
        {onDeck.data?.items.map((item) => (
          <li key={item.ratingKey}>
            <MediaCard item={item} />
          </li>
        ))}
      </Rail>
      <Rail id="recent" title="Recently added" loading={recent.isPending} error={recent.error} empty="Nothing new on the server lately." count={recent.data?.items.length ?? 0}>
        {recent.data?.items.map((item) => (
          <li key={item.ratingKey}>
            <MediaCard item={item} note={item.kind === 'season' ? 'New episodes' : undefined} />
          </li>
        ))}
      </Rail>
      <Rail id="sessions" title="Now playing in the house" loading={sessions.isPending} error={sessions.error} empty="Nobody is watching anything right now." count={sessions.data?.sessions.length ?? 0}>
        {sessions.data?.sessions.map((s, i) => (
          <li key={`${s.item.ratingKey}-${i}`}>
            <MediaCard item={s.item} note={`${s.user ?? 'Someone'}${s.player ? ` on ${s.player}` : ''}${s.state === 'paused' ? ' (paused)' : ''}`} />
          </li>
        ))}
      </Rail>
      {hubs.error ? (
        <Rail id="hubs" title="More on the server" loading={false} error={hubs.error} empty="" count={0}>
          {null}
        </Rail>
      ) : (
        hubs.data?.hubs.map((h) => (
          <Rail key={h.id} id={`hub-${h.id.replace(/[^a-z0-9-]/gi, '-')}`} title={h.title} loading={false} error={null} empty="" count={h.items.length}>
            {h.items.map((item) => (
              <li key={item.ratingKey}>
                <MediaCard item={item} />
              </li>
            ))}
          </Rail>
        ))
      )}
    </div>
  );
}
