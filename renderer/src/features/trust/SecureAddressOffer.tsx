// On Hearth's plain address (http:// by a LAN name or address, not a secure context), a bar that
// either offers the secure address (this device trusts the certificate: switch now, or always,
// remembered on this device) or says why to get there ("Open Hearth's secure address to install
// it", linking the Trust page). The computer itself (localhost) and the secure address show nothing.
import { useEffect, useState, type ReactElement } from 'react';
import { Icon } from '../../ui/icons';
import { useTlsStatus } from './queries';
import { ALWAYS_SECURE_KEY, probeSecure, secureOrigin } from './secure-address';
import './trust.css';

const DISMISSED_KEY = 'hearth.secure-offer-dismissed';

const stored = (storage: Storage | undefined, key: string) => {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
};
const store = (storage: Storage | undefined, key: string, value: string) => {
  try {
    storage?.setItem(key, value);
  } catch {
    // private browsing without storage: the choice lasts this page only
  }
};

type Offer = 'probing' | 'trusted' | 'untrusted' | 'hidden';

export function SecureAddressOffer(): ReactElement | null {
  const insecure = !window.isSecureContext;
  const [offer, setOffer] = useState<Offer>(() => (insecure && stored(window.sessionStorage, DISMISSED_KEY) === null ? 'probing' : 'hidden'));
  const status = useTlsStatus();
  const origin = status.data ? secureOrigin(status.data, window.location) : null;
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;

  useEffect(() => {
    if (offer !== 'probing' || !status.data) return;
    if (!origin) return setOffer('hidden');
    let live = true;
    void probeSecure(origin).then((trusted) => {
      if (!live) return;
      if (trusted && stored(window.localStorage, ALWAYS_SECURE_KEY) === 'always') {
        window.location.replace(`${origin}${here}`);
        return;
      }
      setOffer(trusted ? 'trusted' : 'untrusted');
    });
    return () => {
      live = false;
    };
  }, [offer, status.data, origin, here]);

  if (!insecure || offer === 'probing' || offer === 'hidden' || !origin) return null;
  // the Trust page says all of this itself
  if (offer === 'untrusted' && window.location.pathname === '/trust') return null;
  const dismiss = () => {
    store(window.sessionStorage, DISMISSED_KEY, '1');
    setOffer('hidden');
  };
  return (
    <aside className="secure-offer" aria-label="Secure address" data-testid="secure-offer">
      <Icon name="lock" size={20} />
      {offer === 'trusted' ? (
        <>
          <p className="secure-offer__text">This device trusts Hearth’s secure address, where it can be installed and use the microphone and camera.</p>
          <div className="secure-offer__actions">
            <a className="btn btn--primary btn--compact" href={`${origin}${here}`}>
              Switch now
            </a>
            <a
              className="btn btn--secondary btn--compact"
              href={`${origin}${here}`}
              onClick={() => store(window.localStorage, ALWAYS_SECURE_KEY, 'always')}
              data-testid="secure-offer-always"
            >
              Always use it
            </a>
            <button type="button" className="btn btn--ghost btn--compact" onClick={dismiss}>
              Not now
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="secure-offer__text">Open Hearth’s secure address to install it on this device and use the microphone and camera.</p>
          <div className="secure-offer__actions">
            <a className="btn btn--secondary btn--compact" href="/trust">
              How
            </a>
            <button type="button" className="btn btn--ghost btn--compact" onClick={dismiss}>
              Not now
            </button>
          </div>
        </>
      )}
    </aside>
  );
}
