// /admin/connectivity: how phones and laptops at home open Hearth (the addresses, with a QR code), whether
// the internet answers (one check, kept a minute, never made in offline mode), each outside source's
// last good fetch and last failure, and the offline switch: on at once for every outbound path, kept
// across restarts; locked on, with why, when Hearth was started in offline mode.
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon } from '../../ui/icons';
import { fmt } from '../../ui/locale';
import { PageHeader } from '../../ui/PageHeader';
import { QrCode } from '../../ui/QrCode';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { useToast } from '../../ui/Toast';
import type { ConnectivityResponse } from '../../../../server/modules/connectivity/schema.js';
import { useConnectivity, useSetOfflineMode } from './queries';
import './connectivity.css';

const when = (iso: string) => fmt().dateTime(iso, 'short');

export function ConnectivityAdminPage(): ReactElement {
  const data = useConnectivity();
  let body: ReactElement;
  if (data.error) body = <ErrorState title="Connectivity did not load" error={data.error} onRetry={() => void data.refetch()} />;
  else if (!data.data) body = <LoadingState label="Checking the network…" />;
  else
    body = (
      <>
        <OfflineMode data={data.data} />
        <Addresses data={data.data} />
        <Internet data={data.data} onCheck={() => void data.refetch()} checking={data.isFetching} />
        <Sources data={data.data} />
      </>
    );
  return (
    <section className="page connectivity-admin" aria-labelledby="connectivity-title">
      <PageHeader titleId="connectivity-title" title="Connectivity" description="How phones reach Hearth, whether the internet answers, and offline mode." />
      {body}
    </section>
  );
}

function OfflineMode({ data }: { data: ConnectivityResponse }): ReactElement {
  const set = useSetOfflineMode();
  const toast = useToast();
  const [asking, setAsking] = useState<boolean | null>(null);
  const { on, locked, message } = data.offlineMode;
  const apply = async () => {
    if (asking === null) return;
    await set.mutateAsync({ offlineMode: asking });
    setAsking(null);
    toast(asking ? 'Offline mode is on.' : 'Offline mode is off.');
  };
  return (
    <section className="card connectivity__card" aria-labelledby="offline-title">
      <h2 id="offline-title" className="connectivity__h2">
        Offline mode
      </h2>
      <Switch
        label="Offline mode"
        checked={on}
        disabled={locked || set.isPending}
        onCheckedChange={(next) => setAsking(next)}
        testId="offline-switch"
        hint={
          locked
            ? 'Locked on: Hearth was started in offline mode. Whoever starts Hearth can restart it with offline mode switched off.'
            : 'Nothing leaves the house: no weather, news, saved web pages, podcasts, barcode look-ups, notifications sent out or downloads. What Hearth already has keeps working.'
        }
      />
      {on && message ? (
        <p className="connectivity__state" role="status" data-testid="offline-state">
          <Icon name="lock" size={20} /> {message}
        </p>
      ) : null}
      <FormError message={set.error ? errorMessage(set.error) : null} />
      <ConfirmDialog
        open={asking !== null}
        title={asking ? 'Switch offline mode on?' : 'Switch offline mode off?'}
        description={
          asking
            ? 'Hearth stops reaching the internet at once, for everyone: Today’s weather and news, saving web pages, podcasts, barcode look-ups, notifications sent out and downloads. It stays off the internet after a restart until an admin switches this off.'
            : 'Hearth reaches the internet again for the sources the household uses: Today, the Reader, podcasts, barcode look-ups, notifications and downloads.'
        }
        confirmLabel={asking ? 'Go offline' : 'Go online'}
        confirmIcon={asking ? 'lock' : 'refresh'}
        tone="primary"
        cancelLabel="Cancel"
        testId="offline-confirm"
        onConfirm={apply}
        onClose={() => setAsking(null)}
      />
    </section>
  );
}

function Addresses({ data }: { data: ConnectivityResponse }): ReactElement {
  const plain = data.addresses.find((a) => !a.secure);
  const secure = data.addresses.some((a) => a.secure);
  return (
    <section className="card connectivity__card" aria-labelledby="addresses-title">
      <h2 id="addresses-title" className="connectivity__h2">
        How phones reach Hearth
      </h2>
      {data.reach === 'loopback' ? (
        <p>
          Phones and laptops cannot reach Hearth: it was started to answer on this computer only (<code>HOST={data.host}</code>). Start it again with <code>HOST=0.0.0.0</code> to use it from other devices.
        </p>
      ) : data.reach === 'no_network' ? (
        <p>This computer is not on a network right now, so phones and laptops cannot reach Hearth. Connect it to the home Wi-Fi or router.</p>
      ) : (
        <div className="connectivity__addresses">
          <div>
            <p>On a phone or laptop on the same Wi-Fi, open:</p>
            <ul className="connectivity__list" data-testid="connectivity-addresses">
              {data.addresses.map((a) => (
                <li key={a.url} className="connectivity__address">
                  {a.url} <span className="muted">{a.secure ? '(secure: the app installs, microphone and camera work)' : '(plain)'}</span>
                </li>
              ))}
            </ul>
            {secure ? <p className="muted">A phone trusts the secure address once, from the Trust page the code opens.</p> : null}
          </div>
          {plain ? <QrCode text={secure ? `${plain.url}/trust` : plain.url} className="connectivity__qr" /> : null}
        </div>
      )}
    </section>
  );
}

function Internet({ data, onCheck, checking }: { data: ConnectivityResponse; onCheck: () => void; checking: boolean }): ReactElement {
  const { internet } = data;
  return (
    <section className="card connectivity__card" aria-labelledby="internet-title">
      <h2 id="internet-title" className="connectivity__h2">
        Internet
      </h2>
      {internet.status === 'offline' ? (
        <p data-testid="internet-state">Not checked: offline mode is on, so Hearth does not reach the internet.</p>
      ) : internet.status === 'reachable' ? (
        <p data-testid="internet-state">
          <Icon name="check" size={20} /> The internet answers: Hearth reached {internet.host}
          {internet.checkedAt ? ` at ${when(internet.checkedAt)}` : ''}.
        </p>
      ) : (
        <p data-testid="internet-state">
          <Icon name="warn" size={20} /> The internet did not answer. {internet.message}
        </p>
      )}
      {internet.status !== 'offline' ? (
        <div>
          <button type="button" className="btn btn--secondary" onClick={onCheck} disabled={checking}>
            <Icon name="refresh" size={20} />
            {checking ? 'Checking…' : 'Check again'}
          </button>
          <p className="muted">One small request, at most once a minute.</p>
        </div>
      ) : null}
    </section>
  );
}

function Sources({ data }: { data: ConnectivityResponse }): ReactElement {
  return (
    <section className="card connectivity__card" aria-labelledby="sources-title">
      <h2 id="sources-title" className="connectivity__h2">
        Outside sources
      </h2>
      {data.sources.length === 0 ? (
        <p className="muted">Hearth has not fetched from any outside source yet. Today, the TV guide and podcast covers appear here once they are used.</p>
      ) : (
        <ul className="connectivity__list" data-testid="connectivity-sources">
          {data.sources.map((s) => (
            <li key={s.name} className="connectivity__source">
              <strong>{s.name}</strong>
              <span>{s.lastSuccessAt ? `Last fetched ${when(s.lastSuccessAt)}` : 'Never fetched yet'}</span>
              {s.lastError ? (
                <span className="connectivity__error">
                  <Icon name="warn" size={18} /> {s.lastErrorAt ? `${when(s.lastErrorAt)}: ` : ''}
                  {s.lastError}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
