// Secure connections (admin): which certificate Hearth's HTTPS address uses (the household's own
// authority, one the admin brings for a domain or a Tailscale name, or none: HTTP only), the names
// it covers, the fingerprint devices compare, when it ends, renewal, and the way to each device's
// steps (the Trust page). The admin's key is sent once and never shown again.
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { PageHeader } from '../../ui/PageHeader';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import type { TlsAdminResponse, TlsMode } from '../../../../server/modules/tls/schema.js';
import { useRenewTls, useTlsAdmin, useUpdateTls } from './queries';
import './trust.css';
import { fmt } from '../../ui/locale';

const MODE_TEXT: Record<TlsMode, string> = {
  household: 'The household certificate',
  own: 'Your own certificate',
  off: 'Off (HTTP only)',
};

const formatDay = (iso: string) => fmt().date(iso);

export function TlsAdminPage(): ReactElement {
  const tls = useTlsAdmin();
  return (
    <section className="page tls-admin" aria-labelledby="tls-admin-title">
      <PageHeader
        titleId="tls-admin-title"
        title="Secure connections"
        description="Hearth’s secure (HTTPS) address: phones and laptops that trust its certificate can install the app, use it offline and use the microphone and camera."
      />
      {!tls.data ? (
        tls.error ? <ErrorState title="The secure connection settings did not load" error={tls.error} onRetry={() => void tls.refetch()} /> : <LoadingState label="Loading the secure connection settings…" />
      ) : (
        <>
          <Current state={tls.data} />
          <Choose state={tls.data} />
        </>
      )}
    </section>
  );
}

function Current({ state }: { state: TlsAdminResponse }): ReactElement {
  const renew = useRenewTls();
  const toast = useToast();
  return (
    <div className="card tls-admin__card" data-testid="tls-state">
      <h2 className="tls-admin__h2">In use: {MODE_TEXT[state.mode]}</h2>
      {state.notice ? (
        <p className="banner banner--warn" role="status">
          {state.notice}
        </p>
      ) : null}
      {state.mode === 'off' ? (
        <p className="muted">Hearth answers over HTTP only. Devices cannot install it, and it cannot use the microphone or camera on them.</p>
      ) : (
        <dl className="facts">
          <div className="facts__row">
            <dt>Secure port</dt>
            <dd>{state.httpsPort ?? 'not open (see the log: the port may be in use)'}</dd>
          </div>
          <div className="facts__row">
            <dt>Names</dt>
            <dd data-testid="tls-names">{state.names.join(', ')}</dd>
          </div>
          <div className="facts__row">
            <dt>Valid until</dt>
            <dd>{state.validUntil ? formatDay(state.validUntil) : 'unknown'}</dd>
          </div>
          <div className="facts__row">
            <dt>Fingerprint (SHA-256)</dt>
            <dd className="trust__fingerprint-value" data-testid="tls-fingerprint">
              {state.fingerprintSha256}
            </dd>
          </div>
        </dl>
      )}
      {state.mode === 'household' ? (
        <p className="muted">Hearth renews this certificate by itself 30 days before it ends, and whenever this computer’s network addresses change.</p>
      ) : null}
      <div className="tls-admin__actions">
        <Link className="btn btn--secondary" to="/trust">
          Each device’s steps
        </Link>
        {state.mode === 'household' ? (
          <button
            type="button"
            className="btn btn--secondary"
            disabled={renew.isPending}
            onClick={() => renew.mutate(undefined, { onSuccess: () => toast('Hearth made a new certificate. Devices that trust the household keep trusting it.') })}
          >
            {renew.isPending ? 'Renewing…' : 'Renew now'}
          </button>
        ) : null}
      </div>
      <FormError message={renew.error ? errorMessage(renew.error) : null} />
    </div>
  );
}

function Choose({ state }: { state: TlsAdminResponse }): ReactElement {
  const update = useUpdateTls();
  const toast = useToast();
  const [mode, setMode] = useState<TlsMode>(state.mode);
  const [certPem, setCertPem] = useState('');
  const [keyPem, setKeyPem] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = mode === 'own' ? { mode, certPem, keyPem } : { mode };
    update.mutate(body, {
      onSuccess: (s) => {
        setKeyPem('');
        toast(s.mode === 'off' ? 'HTTPS is off.' : s.mode === 'own' ? 'Hearth now uses your certificate.' : 'Hearth now uses the household certificate.');
      },
    });
  };
  const changed = mode !== state.mode || mode === 'own';
  return (
    <form className="card tls-admin__card" onSubmit={submit} aria-labelledby="tls-choose-title">
      <h2 className="tls-admin__h2" id="tls-choose-title">
        Choose the certificate
      </h2>
      <SegmentedControl
        label="Certificate"
        value={mode}
        onChange={setMode}
        options={(Object.keys(MODE_TEXT) as TlsMode[]).map((m) => ({ value: m, label: MODE_TEXT[m], testId: `tls-mode-${m}` }))}
      />
      {mode === 'household' ? (
        <p className="muted">Made by Hearth for this computer’s names and home addresses. It can only vouch for addresses inside the home. Each device trusts it once.</p>
      ) : mode === 'own' ? (
        <>
          <p className="muted">
            For a household with its own domain or a Tailscale name: paste the certificate, then each certificate that signed it up to the root, and its private key.
            Hearth checks them before using them.
          </p>
          <div className="field">
            <label className="field__label" htmlFor="tls-cert">
              Certificate chain (PEM)
            </label>
            <textarea id="tls-cert" className="input tls-admin__pem" rows={6} value={certPem} onChange={(e) => setCertPem(e.target.value)} spellCheck={false} required />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="tls-key">
              Private key (PEM)
            </label>
            <textarea id="tls-key" className="input tls-admin__pem" rows={4} value={keyPem} onChange={(e) => setKeyPem(e.target.value)} spellCheck={false} required autoComplete="off" />
          </div>
        </>
      ) : (
        <p className="muted">Hearth closes its secure port and answers over HTTP only.</p>
      )}
      <FormError message={update.error ? errorMessage(update.error) : null} />
      <button type="submit" className="btn btn--primary" disabled={!changed || update.isPending}>
        {update.isPending ? 'Saving…' : mode === 'own' ? 'Check and use' : 'Use this'}
      </button>
    </form>
  );
}
