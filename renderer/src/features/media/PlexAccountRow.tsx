// The "Plex account" row of a member's own profile page: linked as whom, with Unlink (and Link again
// after Plex signed Hearth out), or a link to /media/link when not linked. Hidden while no media
// server is connected to Hearth (nothing would use the link yet), and while that is not known.
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { useMediaMe, useMediaStatus, useUnlink } from './link-queries';
import { LINK_ACCOUNT_HREF } from './link-queries';

export function PlexAccountRow(): ReactElement | null {
  const status = useMediaStatus();
  const configured = status.data?.configured === true;
  const me = useMediaMe(configured);
  const unlink = useUnlink();
  if (!configured) return null;

  let body: ReactElement;
  if (!me.data) {
    body = me.error ? (
      <p className="profile__value" role="alert">
        Your Plex link did not load. {errorMessage(me.error)}{' '}
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => void me.refetch()}>
          Try again
        </button>
      </p>
    ) : (
      <p className="profile__value muted" role="status">
        <Spinner size={18} /> Loading…
      </p>
    );
  } else if (me.data.linked || me.data.tokenState === 'revoked') {
    const revoked = me.data.tokenState === 'revoked';
    const who = me.data.displayName ?? me.data.username ?? 'your Plex account';
    body = (
      <>
        <p className="profile__value" data-testid="plex-account">
          {revoked ? (
            <>
              <Icon name="warn" size={20} /> Plex signed Hearth out of <strong>{who}</strong>. Link it again to keep your watchlist and watched marks.
            </>
          ) : (
            <>
              <Icon name="check" size={20} /> Linked as <strong>{who}</strong>
            </>
          )}
        </p>
        <div className="profile__actions">
          <Link to={LINK_ACCOUNT_HREF} className={revoked ? 'btn btn--primary' : 'btn btn--secondary'}>
            Link again
          </Link>
          <button type="button" className="btn btn--ghost" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
            {unlink.isPending ? <Spinner size={20} /> : <Icon name="close" size={20} />}
            Unlink
          </button>
        </div>
        {unlink.error ? (
          <p className="banner banner--error" role="alert">
            <Icon name="warn" size={22} />
            <span>{errorMessage(unlink.error)}</span>
          </p>
        ) : null}
      </>
    );
  } else {
    body = (
      <>
        <p className="profile__value muted" data-testid="plex-account">
          Not linked. Media stays empty for you until you link your own Plex account; it also keeps your watchlist and marks what you have watched.
        </p>
        <div className="profile__actions">
          <Link to={LINK_ACCOUNT_HREF} className="btn btn--secondary">
            Link my Plex account
          </Link>
        </div>
      </>
    );
  }
  return (
    <div className="card profile__row" role="group" aria-labelledby="profile-plex-title">
      <h2 id="profile-plex-title" className="profile__label">
        Plex account
      </h2>
      {body}
    </div>
  );
}
