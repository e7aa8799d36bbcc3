// /notifications/channels (admins, issue 38): the household's notification channels. ntfy (its
// address and an optional access token), Gotify (its address; each member brings an application
// token), an SMTP mail server and a Telegram bot (its token from BotFather, checked with Telegram
// before it is saved). Secrets are never shown again: the page says one is saved. Below, the
// delivery log: what was sent to whom, on which channel, and whether it arrived.
import { useState, type FormEvent, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import type { NotifyAdminChannel, NotifyChannelType } from '../../api/types';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { CHANNEL_LABELS, TYPE_LABELS } from './labels';
import { useAdminChannels, useDeliveries, useRemoveChannel, useSaveChannel } from './queries';
import './notify.css';
import { fmt } from '../../ui/locale';

const state = (c: NotifyAdminChannel, offline: boolean): string => {
  if (!c.configured) return 'Not connected.';
  if (c.type === 'telegram') return offline ? `Connected to @${c.botUsername}, but offline mode stops Telegram.` : `Connected to @${c.botUsername}${c.polling ? ', listening for link codes.' : '.'}`;
  if (offline) return 'Set up, but offline mode stops every send.';
  if (c.type === 'email') return `Sending from ${c.from} through ${c.host}:${c.port}${c.tokenSet ? ' (password saved)' : ''}.`;
  return `Set up at ${c.url}${c.tokenSet ? ' (token saved)' : ''}.`;
};

function ChannelCard({ c, offline }: { c: NotifyAdminChannel; offline: boolean }): ReactElement {
  const save = useSaveChannel();
  const remove = useRemoveChannel();
  const [v, setV] = useState<Record<string, string>>({ url: c.url ?? '', host: c.host ?? '', port: c.port ? String(c.port) : '587', user: c.user ?? '', from: c.from ?? '', token: '', password: '', botToken: '' });
  const [secure, setSecure] = useState(c.secure ?? false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const field = (k: string) => (ev: { target: { value: string } }) => setV((x) => ({ ...x, [k]: ev.target.value }));
  const body = (): Record<string, unknown> => {
    const t = (k: string) => v[k]!.trim();
    if (c.type === 'ntfy') return { url: t('url'), ...(t('token') ? { token: t('token') } : {}) };
    if (c.type === 'gotify') return { url: t('url') };
    if (c.type === 'telegram') return { botToken: t('botToken') };
    return { host: t('host'), port: Number(t('port')), secure, ...(t('user') ? { user: t('user') } : {}), ...(t('password') ? { password: t('password') } : {}), from: t('from') };
  };
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setError(null);
    setFields({});
    try {
      await save.mutateAsync({ type: c.type, body: body() });
      setV((x) => ({ ...x, token: '', password: '', botToken: '' }));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'invalid_request' && Object.keys(err.fieldIssues).length) setFields(err.fieldIssues);
      setError(errorMessage(err));
    }
  };
  const id = `notify-admin-${c.type}`;
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{CHANNEL_LABELS[c.type]}</h2>
      <p role="status" data-testid={`channel-state-${c.type}`}>
        {state(c, offline)}
      </p>
      <form className="notify__form" onSubmit={(ev) => void submit(ev)}>
        {c.type === 'ntfy' || c.type === 'gotify' ? <TextField label="Server address" hint={c.type === 'ntfy' ? 'For example http://ntfy.home.lan or https://ntfy.sh' : 'For example http://gotify.home.lan'} value={v.url} onChange={field('url')} inputMode="url" required error={fields.url} autoComplete="off" /> : null}
        {c.type === 'ntfy' ? <TextField label="Access token (optional)" hint={c.tokenSet ? 'A token is saved. Paste a new one only to replace it.' : 'Only when the server needs one (tk_…).'} type="password" value={v.token} onChange={field('token')} autoComplete="off" /> : null}
        {c.type === 'email' ? (
          <>
            <TextField label="Mail server" hint="For example smtp.home.lan" value={v.host} onChange={field('host')} required error={fields.host} autoComplete="off" />
            <TextField label="Port" inputMode="numeric" value={v.port} onChange={field('port')} required error={fields.port} />
            <label className="notify__check">
              <input type="checkbox" checked={secure} onChange={(ev) => setSecure(ev.target.checked)} /> TLS from the start (port 465)
            </label>
            <TextField label="User name (optional)" value={v.user} onChange={field('user')} autoComplete="off" />
            <TextField label="Password (optional)" hint={c.tokenSet ? 'A password is saved. Type a new one only to replace it.' : undefined} type="password" value={v.password} onChange={field('password')} autoComplete="new-password" />
            <TextField label="Send from" type="email" value={v.from} onChange={field('from')} required error={fields.from} />
          </>
        ) : null}
        {c.type === 'telegram' ? (
          <TextField label="Bot token" hint={c.tokenSet ? 'A token is saved. Paste a new one only to change the bot (members link again).' : 'From @BotFather in Telegram: /newbot, then copy the token.'} type="password" value={v.botToken} onChange={field('botToken')} required error={fields.botToken} autoComplete="off" />
        ) : null}
        <FormError message={error} />
        <div className="notify__actions">
          <button type="submit" className="btn btn--primary" disabled={save.isPending || (c.type === 'telegram' && offline)}>
            {save.isPending ? 'Checking…' : c.configured ? 'Save' : 'Connect'}
          </button>
          {c.configured ? (
            <button type="button" className="btn btn--danger-ghost" disabled={remove.isPending} onClick={() => remove.mutateAsync(c.type).catch((err: unknown) => setError(errorMessage(err)))}>
              Remove
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function DeliveryLog(): ReactElement {
  const q = useDeliveries();
  if (q.isPending) return <LoadingState label="Loading the delivery log…" />;
  if (q.isError) return <ErrorState error={q.error} title="The delivery log did not load" onRetry={() => void q.refetch()} />;
  return (
    <section className="card" aria-labelledby="notify-log-title">
      <div className="notify__log-head">
        <h2 id="notify-log-title">Delivery log</h2>
        <button type="button" className="btn btn--secondary btn--compact" onClick={() => void q.refetch()} disabled={q.isFetching}>
          Refresh
        </button>
      </div>
      {q.data.deliveries.length === 0 ? (
        <EmptyState title="Nothing sent yet">Sends to ntfy, Gotify, e-mail and Telegram are listed here.</EmptyState>
      ) : (
        <ul className="notify__log">
          {q.data.deliveries.map((d) => (
            <li key={d.id} className={d.ok ? 'notify__log-row' : 'notify__log-row notify__log-row--failed'}>
              <span className="notify__log-what">
                <strong>{d.ok ? 'Delivered' : 'Failed'}</strong> · {CHANNEL_LABELS[d.channel]} · {TYPE_LABELS[d.notificationType] ?? d.notificationType} · {d.memberName ?? 'a removed member'}
              </span>
              <span className="muted">
                {fmt().dateTime(d.at)} · {d.attempts === 1 ? '1 try' : `${d.attempts} tries`} · {d.message}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function NotifyAdminPage(): ReactElement {
  const q = useAdminChannels();
  const types: NotifyChannelType[] = ['ntfy', 'gotify', 'email', 'telegram'];
  return (
    <section className="page" aria-labelledby="notify-admin-title">
      <PageHeader titleId="notify-admin-title" title="Notification channels" description="Where Hearth may send notifications besides the app. Each member chooses what goes where in their profile." />
      {q.isPending ? (
        <LoadingState label="Loading the channels…" />
      ) : q.isError ? (
        <ErrorState error={q.error} title="The channels did not load" onRetry={() => void q.refetch()} />
      ) : (
        <>
          {q.data.offline ? (
            <p className="card notify__offline" role="status">
              Hearth is in offline mode: nothing is sent to these channels and notifications stay in the app.
            </p>
          ) : null}
          {types.map((t) => {
            const c = q.data.channels.find((x) => x.type === t)!;
            return <ChannelCard key={`${t}-${c.updatedAt ?? 'none'}`} c={c} offline={q.data.offline} />;
          })}
          <DeliveryLog />
        </>
      )}
    </section>
  );
}
