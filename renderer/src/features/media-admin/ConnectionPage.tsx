// Media server (admin): the household's one Plex connection. Its state (which server, at which
// address, how it was set, whether it answers and takes Hearth's sign-in), disconnect, and the two
// ways to connect: sign in with Plex (the PIN flow, then a pick among the servers that account
// reaches, each connection marked whether it answered just now) or type the address and token.
// The token is sent once, to Hearth, and never shown again: the page only hears whether one is set.
import { useCallback, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { LINK_ACCOUNT_HREF, useDiscoverServers, useMediaConfig, useSaveMediaConfig, PinFlow } from '../media';
import type { ConfigView, DiscoverResponse } from '../../../../server/modules/media-server/schema.js';
import '../media/link-account.css';
import { fmt } from '../../ui/locale';

const HEALTH_TEXT: Record<NonNullable<ConfigView['health']>, { text: string; tone: string; detail: string }> = {
  ok: { text: 'Working', tone: 'ok', detail: 'The server answers and takes Hearth’s sign-in.' },
  unauthorized: { text: 'Sign-in refused', tone: 'error', detail: 'The server no longer takes Hearth’s sign-in (its token was signed out). Connect it again below.' },
  unreachable: { text: 'Not answering', tone: 'warn', detail: 'The server did not answer. It may be switched off or restarting; Hearth keeps trying.' },
};

export function ConnectionPage(): ReactElement {
  const config = useMediaConfig();
  return (
    <section className="page media-admin" aria-labelledby="media-admin-title">
      <PageHeader titleId="media-admin-title" title="Media server" description="The household’s Plex: everyone in Hearth browses and plays through this one connection." />
      {!config.data ? (
        config.error ? (
          <ErrorState title="The media server settings did not load" error={config.error} onRetry={() => void config.refetch()} />
        ) : (
          <LoadingState label="Loading the media server settings…" />
        )
      ) : (
        <>
          <ConnectionState config={config.data} />
          <Connect connected={config.data.configured} />
          <p className="muted">
            Your own Plex account for your watchlist is separate: <Link to={LINK_ACCOUNT_HREF}>link my Plex account</Link>.
          </p>
          <p className="muted">
            Members’ own videos and their private libraries: <Link to="/admin/media-storage">media storage</Link>.
          </p>
        </>
      )}
    </section>
  );
}

function ConnectionState({ config }: { config: ConfigView }): ReactElement {
  const save = useSaveMediaConfig();
  const toast = useToast();
  if (!config.configured) {
    return (
      <div className="card media-admin__card" data-testid="connection-state">
        <h2 className="media-link__h2">Not connected</h2>
        <p className="muted">Connect the household’s Plex Media Server below. Until then the Media page stays empty for everyone.</p>
      </div>
    );
  }
  const health = config.health ? HEALTH_TEXT[config.health] : null;
  return (
    <div className="card media-admin__card" data-testid="connection-state">
      <h2 className="media-link__h2">
        Connected to {config.serverName} {health ? <span className={`badge badge--${health.tone}`}>{health.text}</span> : null}
      </h2>
      {health && config.health !== 'ok' ? (
        <p className={`banner banner--${health.tone === 'error' ? 'error' : 'warn'}`} role="status">
          <Icon name="warn" size={22} />
          <span>{health.detail}</span>
        </p>
      ) : health ? (
        <p className="muted">{health.detail}</p>
      ) : null}
      <dl className="facts">
        <div className="facts__row">
          <dt>Address</dt>
          <dd className="pin-flow__url">{config.serverUrl}</dd>
        </div>
        <div className="facts__row">
          <dt>Set</dt>
          <dd>{config.source === 'discover' ? `By signing in with Plex${config.accountName ? ` as ${config.accountName}` : ''}` : 'By typing the address and token'}</dd>
        </div>
        {config.version ? (
          <div className="facts__row">
            <dt>Version</dt>
            <dd>{config.version}</dd>
          </div>
        ) : null}
        {config.checkedAt ? (
          <div className="facts__row">
            <dt>Last checked</dt>
            <dd>{fmt().dateTime(config.checkedAt)}</dd>
          </div>
        ) : null}
      </dl>
      <div className="actions">
        <button
          type="button"
          className="btn btn--danger-ghost"
          disabled={save.isPending}
          onClick={() => save.mutate({ mode: 'disconnect' }, { onSuccess: () => toast('The media server is disconnected.') })}
        >
          {save.isPending ? <Spinner size={20} /> : <Icon name="close" size={20} />}
          Disconnect
        </button>
      </div>
      <FormError message={save.error ? errorMessage(save.error) : null} />
    </div>
  );
}

function Connect({ connected }: { connected: boolean }): ReactElement {
  const [way, setWay] = useState<'plex' | 'manual'>('plex');
  return (
    <div className="card media-admin__card">
      <h2 className="media-link__h2">{connected ? 'Connect another way, or to another server' : 'Connect'}</h2>
      <div className="actions" role="group" aria-label="How to connect">
        <button type="button" className={way === 'plex' ? 'btn btn--secondary' : 'btn btn--ghost'} aria-pressed={way === 'plex'} onClick={() => setWay('plex')}>
          Sign in with Plex
        </button>
        <button type="button" className={way === 'manual' ? 'btn btn--secondary' : 'btn btn--ghost'} aria-pressed={way === 'manual'} onClick={() => setWay('manual')}>
          Type the address
        </button>
      </div>
      {way === 'plex' ? <ConnectWithPlex /> : <ConnectManually />}
    </div>
  );
}

function ConnectWithPlex(): ReactElement {
  const discover = useDiscoverServers();
  const save = useSaveMediaConfig();
  const toast = useToast();
  const [pinId, setPinId] = useState<number | null>(null);
  const [choice, setChoice] = useState<string | null>(null);
  const [flow, setFlow] = useState(0);
  const onApproved = useCallback(
    (id: number) => {
      setPinId(id);
      discover.mutate(id, {
        onSuccess: (r) => {
          const first = r.servers.flatMap((s) => s.connections.filter((c) => c.reachable).map((c) => `${s.machineIdentifier} ${c.uri}`))[0];
          setChoice(first ?? null);
        },
      });
    },
    [discover],
  );
  const restart = () => {
    discover.reset();
    save.reset();
    setPinId(null);
    setChoice(null);
    setFlow((n) => n + 1);
  };

  if (!discover.data && !discover.isPending && !discover.error) {
    return (
      <>
        <p className="muted">Sign in with the Plex account that owns the server (or one it is shared with). Hearth then lists the servers that account reaches.</p>
        <PinFlow key={flow} startLabel="Sign in with Plex" onApproved={onApproved} />
      </>
    );
  }
  if (discover.isPending) {
    return (
      <p role="status">
        <Spinner size={20} /> Looking for servers and trying each address…
      </p>
    );
  }
  if (discover.error || !discover.data) {
    return (
      <div>
        <FormError message={errorMessage(discover.error)} />
        <button type="button" className="btn btn--secondary" onClick={restart}>
          <Icon name="refresh" size={20} />
          Start again
        </button>
      </div>
    );
  }
  const data: DiscoverResponse = discover.data;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!choice || pinId === null) return;
    const [machineIdentifier, uri] = choice.split(' ') as [string, string];
    save.mutate({ mode: 'discover', pinId, machineIdentifier, uri }, { onSuccess: (c) => (toast(`Connected to ${c.serverName ?? 'the media server'}.`), restart()) });
  };
  if (data.servers.length === 0) {
    return (
      <div>
        <p className="banner banner--warn" role="status">
          <Icon name="warn" size={22} />
          <span>The Plex account {data.account} does not reach any media server. Sign in with the account that owns it, or type its address instead.</span>
        </p>
        <button type="button" className="btn btn--secondary" onClick={restart}>
          Start again
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="pin-flow" data-testid="server-choice">
      <p>Signed in as {data.account}. Pick the server and the address Hearth should use (the first that answered is chosen):</p>
      {data.servers.map((s) => (
        <fieldset key={s.machineIdentifier} className="media-admin__servers">
          <legend>
            <strong>{s.name}</strong> {s.owned ? null : <span className="muted">(shared with this account)</span>}
          </legend>
          {s.connections.map((c) => {
            const value = `${s.machineIdentifier} ${c.uri}`;
            const kind = [c.local ? 'on the home network' : c.relay ? 'through Plex’s relay (slow)' : 'over the internet', c.secure ? 'secure' : null].filter(Boolean).join(', ');
            return (
              <label key={c.uri} className="media-admin__option">
                <input type="radio" name="server" value={value} checked={choice === value} onChange={() => setChoice(value)} disabled={!c.reachable} />
                <span>
                  <span className="pin-flow__url">{c.uri}</span>
                  <br />
                  <span className="muted">
                    {kind}. {c.reachable ? 'Answered just now.' : 'Did not answer from here.'}
                  </span>
                </span>
              </label>
            );
          })}
        </fieldset>
      ))}
      <FormError message={save.error ? errorMessage(save.error) : null} />
      <div className="actions">
        <button type="submit" className="btn btn--primary" disabled={!choice || save.isPending}>
          {save.isPending ? <Spinner size={20} /> : <Icon name="check" size={20} />}
          Use this server
        </button>
        <button type="button" className="btn btn--ghost" onClick={restart}>
          Start again
        </button>
      </div>
    </form>
  );
}

function ConnectManually(): ReactElement {
  const save = useSaveMediaConfig();
  const toast = useToast();
  const [serverUrl, setServerUrl] = useState('');
  const [token, setToken] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { mode: 'manual', serverUrl, token },
      {
        onSuccess: (c) => {
          setToken('');
          toast(`Connected to ${c.serverName ?? 'the media server'}.`);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="pin-flow" data-testid="manual-form">
      <TextField label="Server address" hint="For example http://192.168.1.20:32400" value={serverUrl} onChange={(e) => setServerUrl(e.target.value)} required inputMode="url" autoComplete="off" />
      <TextField label="Plex token" hint="Hearth checks it with the server before saving, and never shows it again." type="password" value={token} onChange={(e) => setToken(e.target.value)} required minLength={8} autoComplete="off" />
      <FormError message={save.error ? errorMessage(save.error) : null} />
      <div className="actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? <Spinner size={20} /> : <Icon name="check" size={20} />}
          Check and save
        </button>
      </div>
    </form>
  );
}
