// /smart-home/manage (admins, issue 37): connect Home Assistant (its address and a long-lived access
// token, checked before it is saved; the token is never shown again), choose which devices the
// household sees and which more to guard, set each member's rights (all shown devices or some, and
// whether guarded devices ask first or are hidden), and read the activity log.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import type { HaExposed, HaMemberRights } from '../../api/types';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useActivity, useConnect, useDisconnect, useExposed, useFrigate, useHaConnection, useMemberRights, useRemoveFrigate, useSetExposed, useSetFrigate, useSetMemberRights } from './queries';
import './smart-home.css';
import { fmt } from '../../ui/locale';

function ConnectionCard(): ReactElement {
  const connection = useHaConnection();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  useEffect(() => {
    if (connection.data?.url) setUrl(connection.data.url);
  }, [connection.data?.url]);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setError(null);
    setFields({});
    try {
      await connect.mutateAsync({ url: url.trim(), token: token.trim() });
      setToken('');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_request') setFields(err.fieldIssues);
      else setError(errorMessage(err));
    }
  };
  if (connection.isPending) return <LoadingState label="Loading the connection…" />;
  if (connection.isError) return <ErrorState error={connection.error} title="The connection did not load" onRetry={() => void connection.refetch()} />;
  const c = connection.data;
  return (
    <section className="card ha-admin__form" aria-labelledby="ha-connection-title">
      <h2 id="ha-connection-title">Connection</h2>
      <p role="status">
        {c.status === 'not_set'
          ? 'Not connected.'
          : c.connected
            ? `Connected to Home Assistant ${c.version ?? ''} at ${c.url}, with ${c.entityCount} devices and sensors.`
            : (c.error ?? 'Not connected.')}
      </p>
      <form className="ha-admin__form" onSubmit={(ev) => void submit(ev)}>
        <TextField label="Home Assistant address" hint="Usually http://homeassistant.local:8123" value={url} onChange={(ev) => setUrl(ev.target.value)} required error={fields.url} inputMode="url" autoComplete="off" />
        <TextField
          label="Long-lived access token"
          hint={c.tokenSet ? 'A token is saved. Paste a new one only to replace it.' : 'In Home Assistant: your profile, Security, Long-lived access tokens, Create token.'}
          type="password"
          value={token}
          onChange={(ev) => setToken(ev.target.value)}
          required
          error={fields.token}
          autoComplete="off"
        />
        <FormError message={error} />
        <div className="ha-admin__actions">
          <button type="submit" className="btn btn--primary" disabled={connect.isPending}>
            {connect.isPending ? 'Checking…' : c.tokenSet ? 'Connect again' : 'Connect'}
          </button>
          {c.tokenSet ? (
            <button type="button" className="btn btn--danger-ghost" disabled={disconnect.isPending} onClick={() => disconnect.mutateAsync().catch((err: unknown) => setError(errorMessage(err)))}>
              Disconnect
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function ExposureCard({ data }: { data: HaExposed }): ReactElement {
  const save = useSetExposed();
  const [exposed, setExposed] = useState(() => new Set(data.entities.filter((e) => e.exposed).map((e) => e.id)));
  const [guarded, setGuarded] = useState(() => new Set(data.entities.filter((e) => e.guarded && !e.guardedByDefault).map((e) => e.id)));
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const flip = (set: Set<string>, id: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  };
  const submit = async () => {
    setError(null);
    setMessage(null);
    try {
      await save.mutateAsync({ entityIds: [...exposed], guarded: [...guarded].filter((g) => exposed.has(g)) });
      setMessage('Saved. Members see the change at once.');
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <section className="card" aria-labelledby="ha-exposed-title">
      <h2 id="ha-exposed-title">What the household sees</h2>
      <p className="muted">Nothing is shown to members until you pick it. Locks, alarms, garage doors and gates always ask before they act.</p>
      {data.entities.length === 0 ? (
        <p>Home Assistant has no devices to show yet.</p>
      ) : (
        <ul className="ha-admin__list">
          {data.entities.map((e) => (
            <li key={e.id} className="ha-admin__entity">
              <span className="ha-admin__entity-name">
                {e.name} <span className="muted">({e.area ?? 'no room'}, {e.id})</span>
              </span>
              <label>
                <input type="checkbox" checked={exposed.has(e.id)} onChange={(ev) => setExposed(flip(exposed, e.id, ev.target.checked))} />
                Shown
              </label>
              <label>
                <input type="checkbox" checked={e.guardedByDefault || guarded.has(e.id)} disabled={e.guardedByDefault || !exposed.has(e.id)} onChange={(ev) => setGuarded(flip(guarded, e.id, ev.target.checked))} />
                Asks first
              </label>
            </li>
          ))}
        </ul>
      )}
      <FormError message={error} />
      {message ? <p role="status">{message}</p> : null}
      <button type="button" className="btn btn--primary" disabled={save.isPending} onClick={() => void submit()}>
        Save what is shown
      </button>
    </section>
  );
}

function MemberRow({ m, shown }: { m: HaMemberRights; shown: HaExposed['entities'] }): ReactElement {
  const save = useSetMemberRights();
  const [error, setError] = useState<string | null>(null);
  const some = m.allowed !== 'all-exposed';
  const picked = new Set(some ? (m.allowed as string[]) : []);
  const put = (allowed: HaMemberRights['allowed'], guarded: HaMemberRights['guarded']) => {
    setError(null);
    save.mutateAsync({ userId: m.userId, allowed, guarded }).catch((err: unknown) => setError(errorMessage(err)));
  };
  return (
    <li className="ha-admin__member">
      <strong>
        {m.name}
        {m.child ? ' (child)' : ''}
      </strong>
      <label>
        Devices
        <select value={some ? 'some' : 'all'} disabled={save.isPending} onChange={(ev) => put(ev.target.value === 'all' ? 'all-exposed' : [], m.guarded)}>
          <option value="all">Everything shown to the household</option>
          <option value="some">Only the ones picked below</option>
        </select>
      </label>
      {some ? (
        <fieldset className="ha-admin__list">
          <legend className="sr-only">Devices {m.name} may use</legend>
          {shown.map((e) => (
            <label key={e.id}>
              <input type="checkbox" checked={picked.has(e.id)} disabled={save.isPending} onChange={(ev) => put(ev.target.checked ? [...picked, e.id] : [...picked].filter((x) => x !== e.id), m.guarded)} />
              {e.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      <label>
        Locks and other guarded devices
        <select value={m.guarded} disabled={save.isPending} onChange={(ev) => put(m.allowed, ev.target.value === 'deny' ? 'deny' : 'confirm')}>
          <option value="confirm">May use them, after confirming</option>
          <option value="deny">Hidden, never usable</option>
        </select>
      </label>
      <FormError message={error} />
    </li>
  );
}

function MembersCard({ shown }: { shown: HaExposed['entities'] }): ReactElement {
  const members = useMemberRights();
  if (members.isPending) return <LoadingState label="Loading members…" />;
  if (members.isError) return <ErrorState error={members.error} title="Members did not load" onRetry={() => void members.refetch()} />;
  return (
    <section className="card" aria-labelledby="ha-members-title">
      <h2 id="ha-members-title">Who may use what</h2>
      <p className="muted">Children have guarded devices hidden until you change it here.</p>
      <ul className="ha-admin__list">
        {members.data.map((m) => (
          <MemberRow key={m.userId} m={m} shown={shown} />
        ))}
      </ul>
    </section>
  );
}

function CamerasCard(): ReactElement {
  const frigate = useFrigate();
  const members = useMemberRights();
  const save = useSetFrigate();
  const remove = useRemoveFrigate();
  const [url, setUrl] = useState('');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [mqttUrl, setMqttUrl] = useState('');
  const [notify, setNotify] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  useEffect(() => {
    const f = frigate.data;
    if (!f?.configured) return;
    setUrl(f.url ?? '');
    setUser(f.user ?? '');
    setMqttUrl(f.mqttUrl ?? '');
    setNotify(new Set(f.notify));
  }, [frigate.data]);
  if (frigate.isPending) return <LoadingState label="Loading the cameras…" />;
  if (frigate.isError) return <ErrorState error={frigate.error} title="The camera settings did not load" onRetry={() => void frigate.refetch()} />;
  const f = frigate.data;
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setError(null);
    setFields({});
    try {
      // the saved password is never shown: left empty it stays (for the same user name); no user name, no sign-in
      const signIn = user.trim() ? { user: user.trim(), ...(password ? { password } : {}) } : { user: null, password: null };
      await save.mutateAsync({ url: url.trim(), ...signIn, ...(mqttUrl.trim() ? { mqttUrl: mqttUrl.trim() } : {}), notify: [...notify] });
      setPassword('');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_request') setFields(err.fieldIssues);
      else setError(errorMessage(err));
    }
  };
  return (
    <section className="card ha-admin__form" aria-labelledby="ha-cameras-title">
      <h2 id="ha-cameras-title">Cameras</h2>
      <p role="status">{f.configured ? `Frigate ${f.version ?? ''} at ${f.url}${f.mqttUrl ? ', events read from its MQTT broker' : ', asked for new events every 10 seconds'}.` : 'No camera recorder is set up.'}</p>
      <form className="ha-admin__form" onSubmit={(ev) => void submit(ev)}>
        <TextField label="Frigate address" hint="Port 5000, or 8971 with a user name and password" value={url} onChange={(ev) => setUrl(ev.target.value)} required error={fields.url} inputMode="url" autoComplete="off" />
        <TextField label="Frigate user name (optional)" value={user} onChange={(ev) => setUser(ev.target.value)} error={fields.user} autoComplete="off" />
        <TextField
          label="Frigate password (optional)"
          hint={f.passwordSet ? 'A password is saved: leave this empty to keep it. Clear the user name to sign in without one.' : undefined}
          type="password"
          value={password}
          onChange={(ev) => setPassword(ev.target.value)}
          error={fields.password}
          autoComplete="off"
        />
        <TextField label="MQTT broker (optional)" hint="Like mqtt://192.168.1.20:1883; events then arrive at once" value={mqttUrl} onChange={(ev) => setMqttUrl(ev.target.value)} error={fields.mqttUrl} autoComplete="off" />
        <fieldset className="ha-admin__list">
          <legend>Tell these members about people, cars and animals</legend>
          {(members.data ?? []).map((m) => (
            <label key={m.userId}>
              <input
                type="checkbox"
                checked={notify.has(m.userId)}
                onChange={(ev) => {
                  const next = new Set(notify);
                  if (ev.target.checked) next.add(m.userId);
                  else next.delete(m.userId);
                  setNotify(next);
                }}
              />
              {m.name}
            </label>
          ))}
        </fieldset>
        <FormError message={error} />
        <div className="ha-admin__actions">
          <button type="submit" className="btn btn--primary" disabled={save.isPending}>
            {save.isPending ? 'Checking…' : 'Save cameras'}
          </button>
          {f.configured ? (
            <button type="button" className="btn btn--danger-ghost" disabled={remove.isPending} onClick={() => remove.mutateAsync().catch((err: unknown) => setError(errorMessage(err)))}>
              Remove cameras
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function ActivityCard(): ReactElement {
  const activity = useActivity();
  if (activity.isPending) return <LoadingState label="Loading the activity…" />;
  if (activity.isError) return <ErrorState error={activity.error} title="The activity did not load" onRetry={() => void activity.refetch()} />;
  const words: Record<string, string> = { done: 'done', refused: 'refused by Home Assistant', unavailable: 'Home Assistant did not answer', denied: 'not allowed' };
  return (
    <section className="card" aria-labelledby="ha-activity-title">
      <h2 id="ha-activity-title">Activity</h2>
      {activity.data.length === 0 ? (
        <p>Nobody has used a device through Hearth yet.</p>
      ) : (
        <ul className="ha-admin__activity">
          {activity.data.slice(0, 50).map((a) => (
            <li key={a.id}>
              {fmt().dateTime(a.at)}: {a.userName} asked {a.service.replace(/_/g, ' ')} on {a.entityId}
              {a.source === 'chat' ? ' (from chat)' : ''}, {words[a.outcome]}.
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SmartHomeAdminPage(): ReactElement {
  const connection = useHaConnection();
  const connected = connection.data?.connected === true;
  const exposed = useExposed(connected);
  return (
    <section className="page ha-admin" aria-labelledby="ha-admin-title">
      <PageHeader
        titleId="ha-admin-title"
        title="Smart home"
        description="Connect Home Assistant and decide what each member of the household may see and use."
        actions={
          <Link className="btn btn--secondary" to="/smart-home">
            Open Smart home
          </Link>
        }
      />
      <ConnectionCard />
      {!connected ? null : exposed.isPending ? (
        <LoadingState label="Loading devices…" />
      ) : exposed.isError ? (
        <ErrorState error={exposed.error} title="Devices did not load" onRetry={() => void exposed.refetch()} />
      ) : (
        <>
          <ExposureCard key={exposed.dataUpdatedAt} data={exposed.data} />
          <MembersCard shown={exposed.data.entities.filter((e) => e.exposed)} />
        </>
      )}
      <CamerasCard />
      <ActivityCard />
    </section>
  );
}
