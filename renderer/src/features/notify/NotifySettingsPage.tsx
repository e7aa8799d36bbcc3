// /profile/notifications (issue 38): where each kind of notification goes for the signed-in member.
// Their own channel addresses (ntfy topic, Gotify application token — kept by Hearth, never shown
// again — and e-mail address) with a Test button each, linking their Telegram chat with a one-time
// code sent to the household's bot (the t.me link; the status updates while the code waits), and a
// small matrix: each notification type, and the places it goes. Channels the admin has not
// connected are not offered; offline mode says that only in-app notifications are delivered.
import { useEffect, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import type { NotifyChannelType, NotifyLinkCode, NotifyMemberRoutes, NotifyRouteTarget } from '../../api/types';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useLinkCode, useLinkStatus, useNotifyRoutes, useRefreshRoutes, useSaveRoutes, useTestChannel, useUnlinkTelegram } from './queries';
import { CHANNEL_LABELS, TYPE_LABELS } from './labels';
import './notify.css';
import { fmt } from '../../ui/locale';

function TestButton({ type, ready, why }: { type: NotifyChannelType; ready: boolean; why: string }): ReactElement {
  const test = useTestChannel();
  const [result, setResult] = useState<string | null>(null);
  const run = async () => {
    setResult(null);
    try {
      const r = await test.mutateAsync(type);
      setResult(r.delivered ? `Sent. ${r.message}` : `Not delivered: ${r.message}`);
    } catch (err) {
      setResult(errorMessage(err));
    }
  };
  return (
    <div className="notify__test">
      <button type="button" className="btn btn--secondary btn--compact" disabled={!ready || test.isPending} onClick={() => void run()} aria-label={`Test ${CHANNEL_LABELS[type]}`}>
        {test.isPending ? 'Sending…' : 'Test'}
      </button>
      <span className="muted notify__test-result" role="status" data-testid={`notify-test-${type}`}>
        {ready ? (result ?? '') : why}
      </span>
    </div>
  );
}

function TelegramCard({ data }: { data: NotifyMemberRoutes }): ReactElement {
  const [code, setCode] = useState<NotifyLinkCode | null>(null);
  const status = useLinkStatus(code !== null);
  const makeCode = useLinkCode();
  const unlink = useUnlinkTelegram();
  const refreshRoutes = useRefreshRoutes();
  const [error, setError] = useState<string | null>(null);
  const linked = status.data?.linked ?? data.channels.telegram.linked;
  const blocked = status.data?.blocked ?? data.channels.telegram.blocked;
  useEffect(() => {
    if (linked && code) {
      setCode(null);
      refreshRoutes();
    }
  }, [linked, code, refreshRoutes]);
  if (!data.available.includes('telegram')) return <p className="muted">Telegram is not connected on this Hearth. An admin connects a bot first.</p>;
  const start = async () => {
    setError(null);
    try {
      setCode(await makeCode.mutateAsync());
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <div className="notify__telegram">
      <p role="status" data-testid="telegram-status">
        {linked ? `Linked to your Telegram chat with @${status.data?.botUsername ?? 'the bot'}.` : code ? 'Waiting for you to press Start in Telegram…' : 'Not linked yet.'}
      </p>
      {linked && blocked ? <p className="notify__blocked">Telegram refused the last message: you may have blocked the bot. Unblock it in Telegram, or unlink and link again.</p> : null}
      {code ? (
        <div className="notify__code">
          <p>
            Open <a href={code.url} target="_blank" rel="noreferrer" data-testid="telegram-link">{code.url}</a> on your phone and press Start. The code <code data-testid="telegram-code">{code.code}</code> works once, until{' '}
            {fmt().time(code.expiresAt)}.
          </p>
        </div>
      ) : null}
      <FormError message={error} />
      <div className="notify__actions">
        {linked ? (
          <button type="button" className="btn btn--danger-ghost btn--compact" disabled={unlink.isPending || data.offline} onClick={() => unlink.mutateAsync().catch((err: unknown) => setError(errorMessage(err)))}>
            Unlink Telegram
          </button>
        ) : (
          <button type="button" className="btn btn--secondary btn--compact" disabled={makeCode.isPending || data.offline} onClick={() => void start()}>
            {code ? 'Make a new code' : 'Link Telegram'}
          </button>
        )}
        <TestButton type="telegram" ready={linked && !data.offline} why={data.offline ? 'Offline mode: nothing is sent.' : 'Link Telegram first.'} />
      </div>
    </div>
  );
}

function Settings({ data }: { data: NotifyMemberRoutes }): ReactElement {
  const save = useSaveRoutes();
  const [topic, setTopic] = useState(data.channels.ntfy?.topic ?? '');
  const [gotifyToken, setGotifyToken] = useState('');
  const [email, setEmail] = useState(data.channels.email?.address ?? '');
  const [routes, setRoutes] = useState<Record<string, NotifyRouteTarget[]>>(() => Object.fromEntries(data.types.map((t) => [t, data.routes[t] ?? ['inapp']])));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const has = (c: NotifyChannelType) => data.available.includes(c);
  const addressOf: Record<NotifyChannelType, boolean> = { ntfy: !!data.channels.ntfy, gotify: !!data.channels.gotify, email: !!data.channels.email, telegram: data.channels.telegram.linked };
  const targets: NotifyRouteTarget[] = ['inapp', ...data.available];
  const flip = (type: string, target: NotifyRouteTarget, on: boolean) => {
    setSaved(false);
    setRoutes((r) => ({ ...r, [type]: on ? [...(r[type] ?? []).filter((x) => x !== target), target] : (r[type] ?? []).filter((x) => x !== target) }));
  };
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setError(null);
    setSaved(false);
    const channels: Record<string, unknown> = {};
    if (has('ntfy')) channels.ntfy = topic.trim() ? { topic: topic.trim() } : null;
    if (has('gotify') && gotifyToken.trim()) channels.gotify = { token: gotifyToken.trim() };
    if (has('email')) channels.email = email.trim() ? { address: email.trim() } : null;
    try {
      await save.mutateAsync({ channels, routes });
      setGotifyToken('');
      setSaved(true);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const why = data.offline ? 'Offline mode: nothing is sent.' : 'Save an address first.';
  return (
    <form onSubmit={(ev) => void submit(ev)} className="notify">
      {data.offline ? (
        <p className="card notify__offline" role="status">
          Hearth is in offline mode: notifications stay in the app and nothing is sent to other channels.
        </p>
      ) : null}
      <section className="card" aria-labelledby="notify-channels-title">
        <h2 id="notify-channels-title">Your channels</h2>
        {data.available.length === 0 ? <p className="muted">No channels are connected on this Hearth yet, so notifications stay in the app. An admin connects ntfy, Gotify, e-mail or Telegram.</p> : null}
        {has('ntfy') ? (
          <div className="notify__channel">
            <TextField label="ntfy topic" hint="Subscribe to this topic in the ntfy app." value={topic} onChange={(ev) => setTopic(ev.target.value)} autoComplete="off" pattern="[A-Za-z0-9_\-]{1,64}" />
            <TestButton type="ntfy" ready={addressOf.ntfy && !data.offline} why={why} />
          </div>
        ) : null}
        {has('gotify') ? (
          <div className="notify__channel">
            <TextField
              label="Gotify application token"
              hint={data.channels.gotify?.tokenSet ? 'A token is saved. Paste a new one only to replace it.' : 'In Gotify: Apps, Create application, copy its token.'}
              type="password"
              value={gotifyToken}
              onChange={(ev) => setGotifyToken(ev.target.value)}
              autoComplete="off"
            />
            <TestButton type="gotify" ready={addressOf.gotify && !data.offline} why={why} />
          </div>
        ) : null}
        {has('email') ? (
          <div className="notify__channel">
            <TextField label="E-mail address" type="email" value={email} onChange={(ev) => setEmail(ev.target.value)} autoComplete="email" />
            <TestButton type="email" ready={addressOf.email && !data.offline} why={why} />
          </div>
        ) : null}
        <h3 className="notify__sub">Telegram</h3>
        <TelegramCard data={data} />
      </section>
      <section className="card" aria-labelledby="notify-routes-title">
        <h2 id="notify-routes-title">What goes where</h2>
        <p className="muted">Each kind of notification can go to several places. Leave all unticked to be told nowhere.</p>
        {data.types.map((type) => (
          <fieldset key={type} className="notify__route">
            <legend>{TYPE_LABELS[type] ?? type}</legend>
            <div className="notify__targets">
              {targets.map((t) => {
                const usable = t === 'inapp' || addressOf[t];
                return (
                  <label key={t} className="notify__target" title={usable ? undefined : `Set up your ${CHANNEL_LABELS[t]} first`}>
                    <input type="checkbox" checked={(routes[type] ?? []).includes(t)} disabled={!usable} onChange={(ev) => flip(type, t, ev.target.checked)} />
                    {t === 'inapp' ? 'In the app' : CHANNEL_LABELS[t]}
                  </label>
                );
              })}
            </div>
          </fieldset>
        ))}
        <p className="muted">A channel can be ticked once your address for it is saved.</p>
      </section>
      <FormError message={error} />
      {saved ? <p role="status">Saved.</p> : null}
      <button type="submit" className="btn btn--primary" disabled={save.isPending}>
        {save.isPending ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}

export function NotifySettingsPage(): ReactElement {
  const q = useNotifyRoutes();
  return (
    <section className="page" aria-labelledby="notify-title">
      <PageHeader titleId="notify-title" title="Notifications" description="Where Hearth tells you things: in the app, on your phone through ntfy, Gotify or Telegram, or by e-mail." />
      <p className="muted">
        <Link to="/profile">Back to your profile</Link>
      </p>
      {q.isPending ? <LoadingState label="Loading your notification settings…" /> : q.isError ? <ErrorState error={q.error} title="Your notification settings did not load" onRetry={() => void q.refetch()} /> : <Settings data={q.data} />}
    </section>
  );
}
