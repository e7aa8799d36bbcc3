// The address to open Hearth at on every phone and laptop in the house, with a QR code of the
// best one's Trust page (how the device trusts Hearth's secure address, issue 31) and a copy button; or, when no other device can reach Hearth, why and what to change.
// Shown at the end of setup (a parent who set up on this computer's localhost has nothing else to type).
import { useState, type ReactElement } from 'react';
import { Icon } from '../../ui/icons';
import { QrCode } from '../../ui/QrCode';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { useHouseAddresses } from './queries';
import { copyText } from '../../ui/copy-text';
import './setup-end.css';

export function HouseAddress(): ReactElement {
  const found = useHouseAddresses();
  const reload = () => void found.refetch();
  if (found.isPending) return <LoadingState label="Finding this computer’s address…" />;
  if (found.isError) return <ErrorState title="The address could not be found" error={found.error} onRetry={reload} />;
  const { addresses, reach, host } = found.data;
  const preferred = addresses[0];
  if (reach !== 'lan' || !preferred) {
    return (
      <div className="banner banner--warn house-address__problem" role="status" data-testid="house-address-problem">
        {reach === 'loopback' ? (
          <div>
            <p>
              <strong>Phones and laptops cannot reach Hearth yet.</strong> Hearth was started to answer on this computer only (with{' '}
              <code>HOST={host}</code>).
            </p>
            <p>To use it from other devices, start Hearth again with <code>HOST=0.0.0.0</code> (or without HOST), then check again.</p>
          </div>
        ) : (
          <div>
            <p>
              <strong>This computer is not on a network right now,</strong> so phones and laptops cannot reach Hearth.
            </p>
            <p>Connect it to your home Wi-Fi or router, then check again.</p>
          </div>
        )}
        <button type="button" className="btn btn--secondary" onClick={reload}>
          <Icon name="refresh" size={20} />
          Check again
        </button>
      </div>
    );
  }
  return (
    <div className="house-address" data-testid="house-address">
      <p>On every phone and laptop at home, connected to the same Wi-Fi as this computer, open:</p>
      <div className="house-address__main">
        <div className="house-address__text">
          <p className="house-address__url" data-testid="house-address-url">
            {preferred}
          </p>
          <CopyButton text={preferred} />
          <p className="muted">Or scan this code with the phone&rsquo;s camera:</p>
        </div>
        <QrCode text={`${preferred}/trust`} className="house-address__qr" testId="house-address-qr" />
      </div>
      <p className="muted">
        The code opens the <a href="/trust">Trust page</a>: it shows how each phone or laptop trusts Hearth once, so it opens Hearth&rsquo;s secure address, where the app
        installs and can use the microphone and camera.
      </p>
      {addresses.length > 1 ? (
        <p className="muted house-address__others">
          If that address does not open, try {addresses.slice(1).map((a, i) => (
            <span key={a}>
              {i > 0 ? ' or ' : ''}
              <span className="house-address__other">{a}</span>
            </span>
          ))}
          .
        </p>
      ) : null}
    </div>
  );
}

function CopyButton({ text }: { text: string }): ReactElement {
  const [result, setResult] = useState<'copied' | 'failed' | null>(null);
  return (
    <div className="house-address__copy">
      <button
        type="button"
        className="btn btn--secondary btn--compact"
        onClick={() => void copyText(text).then((ok) => setResult(ok ? 'copied' : 'failed'))}
      >
        {result === 'copied' ? <Icon name="check" size={18} /> : null}
        {result === 'copied' ? 'Copied' : 'Copy address'}
      </button>
      <span role="status" className={result === 'failed' ? 'house-address__copy-note' : 'visually-hidden'}>
        {result === 'copied' ? 'The address is copied.' : result === 'failed' ? 'This browser did not allow copying: select the address and copy it yourself.' : ''}
      </span>
    </div>
  );
}
