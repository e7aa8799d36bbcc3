// GET /trust: how to make this device trust Hearth's secure address (issue 31). Open to everyone,
// signed in or not (a phone comes here first, from setup's QR code or the desktop's tray): it
// detects the system, shows its steps and the fingerprint to compare, and Check says whether this
// browser now opens the secure address without a warning, then offers to open it.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { useTlsStatus } from './queries';
import { detectOs, probeSecure, secureOrigin, type DeviceOs } from './secure-address';
import { OS_NAMES, TrustSteps } from './steps';
import './trust.css';

type Check = { kind: 'idle' } | { kind: 'checking' } | { kind: 'trusted'; origin: string } | { kind: 'untrusted' };

export function TrustPage(): ReactElement {
  usePageTitle('Trust Hearth on this device');
  const status = useTlsStatus();
  const [os, setOs] = useState<DeviceOs>(() => detectOs(navigator));
  const [check, setCheck] = useState<Check>({ kind: 'idle' });
  const onSecure = window.location.protocol === 'https:';

  let body: ReactElement;
  if (status.isPending) body = <LoadingState label="Asking Hearth about its certificate…" />;
  else if (status.isError) body = <ErrorState title="Hearth did not answer" error={status.error} onRetry={() => void status.refetch()} />;
  else {
    const s = status.data;
    const origin = secureOrigin(s, window.location);
    const runCheck = async () => {
      if (!origin) return;
      setCheck({ kind: 'checking' });
      setCheck((await probeSecure(origin)) ? { kind: 'trusted', origin } : { kind: 'untrusted' });
    };
    body = (
      <>
        {onSecure ? (
          <p className="banner banner--info" role="status" data-testid="trust-already">
            <Icon name="lock" size={20} /> You opened Hearth at its secure address, so this device trusts it already.
          </p>
        ) : null}
        {s.mode === 'off' || !origin ? (
          <p className="banner banner--warn" data-testid="trust-off">
            {s.mode === 'off'
              ? 'Secure connections are turned off in this household. An admin can turn them on in Admin › Secure connections.'
              : 'Hearth’s secure address is not open right now. Ask an admin to look at Admin › Secure connections.'}
          </p>
        ) : null}
        {s.mode === 'own' ? (
          <p>
            This household uses its own certificate (for {s.names.join(', ')}). Devices trust it when they trust whoever issued it; if Check says no, ask the admin
            which certificate to install.
          </p>
        ) : (
          <>
            <div className="field">
              <label className="field__label" htmlFor="trust-os">
                This device
              </label>
              <select id="trust-os" className="input trust__os" value={os} onChange={(e) => setOs(e.target.value as DeviceOs)}>
                {(Object.keys(OS_NAMES) as DeviceOs[]).map((k) => (
                  <option key={k} value={k}>
                    {OS_NAMES[k]}
                  </option>
                ))}
              </select>
            </div>
            <TrustSteps os={os} />
          </>
        )}
        {s.fingerprintSha256 ? (
          <div className="trust__fingerprint">
            <p className="field__label" id="trust-fingerprint-label">
              Fingerprint (SHA-256) to compare
            </p>
            <p className="trust__fingerprint-value" aria-labelledby="trust-fingerprint-label" data-testid="trust-fingerprint">
              {s.fingerprintSha256}
            </p>
            <p className="muted">If the certificate your device shows has another fingerprint, do not trust it: it is not your Hearth’s.</p>
          </div>
        ) : null}
        {origin ? (
          <div className="trust__check" aria-live="polite">
            <button type="button" className="btn btn--primary" onClick={() => void runCheck()} disabled={check.kind === 'checking'} data-testid="trust-check">
              {check.kind === 'checking' ? 'Checking…' : 'Check'}
            </button>
            {check.kind === 'trusted' ? (
              <p className="banner banner--info" role="status" data-testid="trust-result">
                This device trusts Hearth.{' '}
                <a className="btn btn--secondary" href={`${check.origin}${window.location.pathname === '/trust' ? '/' : window.location.pathname}`}>
                  Open the secure address
                </a>
              </p>
            ) : check.kind === 'untrusted' ? (
              <p className="banner banner--warn" role="status" data-testid="trust-result">
                This device does not trust Hearth’s certificate yet. Finish the steps above, then check again; some browsers need to be closed and opened again first.
              </p>
            ) : null}
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="center-screen trust-screen">
      <main className="card trust" aria-labelledby="trust-title">
        <p className="trust__brand">
          <Icon name="flame" size={28} className="brand__mark" />
          <span className="brand__name">Hearth</span>
        </p>
        <h1 id="trust-title" className="page__title">
          Trust Hearth on this device
        </h1>
        <p className="muted">
          Once this device trusts your household’s certificate, it opens Hearth at a secure address: the app installs on the home screen, works offline, and can use
          the microphone and camera. You do this once per device; the certificate only vouches for addresses inside your home.
        </p>
        {body}
        <p className="trust__back">
          <Link to="/">Back to Hearth</Link>
        </p>
      </main>
    </div>
  );
}

