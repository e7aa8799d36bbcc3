// "Link my Plex account": a member's own Plex account, which Media reads the household's films and
// shows with (rule 7: until a member links, Media stays empty for them), and which keeps their
// watchlist and their own watched marks. LinkAccountCard is the card the Media page shows
// (and /media/link, LinkAccountPage, shows on its own): linked as whom and whether that account
// reaches the household's server, the PIN flow to link, "link again" after Plex signed Hearth out,
// and unlink. The token stays on the Hearth server; this page never sees it.
import { useCallback, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { useLinkAccount, useMediaMe, useMediaStatus, useUnlink } from './link-queries';
import { PinFlow } from './PinFlow';
import './link-account.css';

export { LINK_ACCOUNT_HREF } from './link-queries';

export function LinkAccountPage(): ReactElement {
  return (
    <section className="page media-link" aria-labelledby="media-link-title">
      <PageHeader titleId="media-link-title" title="Link my Plex account" description="Media shows the household’s films and shows once you link your own Plex account; until then it stays empty for you. Your account also keeps your watchlist and marks what you have watched." />
      <LinkAccountCard />
    </section>
  );
}

export function LinkAccountCard(): ReactElement {
  const status = useMediaStatus();
  const me = useMediaMe();
  const link = useLinkAccount();
  const unlink = useUnlink();
  const [linking, setLinking] = useState(false);
  const onApproved = useCallback(
    (pinId: number) => {
      link.mutate(pinId, { onSuccess: () => setLinking(false) });
    },
    [link],
  );

  if (!status.data || !me.data) {
    const error = status.error ?? me.error;
    return error ? (
      <ErrorState title="Your Plex link did not load" error={error} onRetry={() => void Promise.all([status.refetch(), me.refetch()])} />
    ) : (
      <LoadingState label="Loading your Plex link…" />
    );
  }
  const s = status.data;
  const m = me.data;

  return (
    <div className="card media-link__card" data-testid="link-account">
      <h2 className="media-link__h2">Your Plex account</h2>
      {!s.configured ? <p className="muted">{s.isAdmin ? 'Connect the household’s media server first, in Admin → Media server.' : 'An admin has not connected the household’s media server yet. You can link your account already.'}</p> : null}

      {m.linked && !linking ? (
        <>
          <p className="media-link__who" data-testid="linked-as">
            <Icon name="check" size={22} /> Linked as <strong>{m.displayName ?? m.username}</strong>
            {m.username && m.displayName && m.displayName !== m.username ? <span className="muted"> ({m.username})</span> : null}
          </p>
          {s.access === 'yes' ? <p className="muted">This account reaches the household’s media server.</p> : null}
          {s.access === 'no' ? (
            <p className="banner banner--warn" role="status" data-testid="no-access">
              <Icon name="warn" size={22} />
              <span>This Plex account does not have access to the household’s media server. Ask whoever runs it to share it with you. Browsing and playing through Hearth still work, and so does your watchlist.</span>
            </p>
          ) : null}
        </>
      ) : null}

      {m.tokenState === 'revoked' && !linking ? (
        <div className="banner banner--warn" role="status" data-testid="link-revoked">
          <Icon name="warn" size={22} />
          <span>Plex signed Hearth out of your account ({m.username}). This happens after a password change or “sign out everywhere”. Link it again to keep your watchlist and watched marks.</span>
        </div>
      ) : null}

      {!m.linked && m.tokenState !== 'revoked' && !linking ? (
        <ul className="media-link__notes">
          {s.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}

      {link.isPending ? (
        <p role="status">
          <Spinner size={20} /> Linking your account…
        </p>
      ) : null}
      {link.error ? (
        <p className="banner banner--error" role="alert">
          <Icon name="warn" size={22} />
          <span>{errorMessage(link.error)}</span>
        </p>
      ) : null}

      {linking ? (
        <PinFlow startLabel="Get a code" autoStart onApproved={onApproved} onCancel={() => setLinking(false)} />
      ) : (
        <div className="actions">
          {!m.linked ? (
            <button type="button" className="btn btn--primary" onClick={() => (link.reset(), setLinking(true))}>
              <Icon name="external" size={20} />
              {m.tokenState === 'revoked' ? 'Link again' : 'Link my Plex account'}
            </button>
          ) : null}
          {m.linked || m.tokenState === 'revoked' ? (
            <button type="button" className="btn btn--ghost" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
              {unlink.isPending ? <Spinner size={20} /> : <Icon name="close" size={20} />}
              Unlink
            </button>
          ) : null}
        </div>
      )}
      {unlink.error ? (
        <p className="banner banner--error" role="alert">
          <Icon name="warn" size={22} />
          <span>{errorMessage(unlink.error)}</span>
        </p>
      ) : null}
    </div>
  );
}
