// Warranties: devices whose warranty ends within a window the member picks (30, 60 or 90 days), with
// the days left, and those whose warranty has ended. GET /warranties?days=N splits on the server's
// today.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { DevicePhoto } from './parts';
import { useWarranties, type Warranties } from './queries';
import { deviceHref, deviceSubtitle, endsIn, formatDay, INVENTORY_HREF } from './types';
import { SegmentedControl } from '../../ui/SegmentedControl';
import './inventory.css';

const WINDOWS = [30, 60, 90] as const;
type Row = Warranties['expiring'][number];

function Rows({ rows, ended }: { rows: Row[]; ended: boolean }): ReactElement {
  return (
    <ul className="inv-rows">
      {rows.map((r) => (
        <li key={r.id} className="inv-row" data-testid="warranty-row">
          <Link to={deviceHref(r.id)} className="inv-row__link">
            <DevicePhoto device={r} size="row" />
            <span className="inv-row__main">
              <span className="inv-row__title">{r.name}</span>
              <span className="inv-row__meta">{deviceSubtitle(r)}</span>
            </span>
            <span className={`badge ${ended ? 'badge--error' : 'badge--warn'}`}>
              {ended ? `Ended ${formatDay(r.warrantyExpires)}` : `${endsIn(r.daysLeft).replace(/^ends/, 'Ends')}`}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function WarrantiesPage(): ReactElement {
  const [days, setDays] = useState<number>(60);
  const w = useWarranties(days);
  return (
    <section className="page inventory" aria-labelledby="warranties-title">
      <Link to={INVENTORY_HREF} className="btn btn--ghost btn--compact inv-back">
        <Icon name="back" size={20} />
        Inventory
      </Link>
      <div className="page__head">
        <div className="page__intro">
          <h1 id="warranties-title" className="page__title">
            Warranties
          </h1>
          <p className="muted page__description">Which warranties end soon, so a fault can still be claimed in time.</p>
        </div>
      </div>
      {!w.data ? (
        w.error ? <ErrorState title="The warranties did not load" error={w.error} onRetry={() => void w.refetch()} /> : <LoadingState label="Loading the warranties…" />
      ) : (
        <>
          <section className="inv-section" aria-labelledby="expiring-title">
            <div className="inv-section__head">
              <h2 id="expiring-title" className="inv-section__title">
                Ending soon
              </h2>
              <SegmentedControl label="How far ahead" value={days} onChange={setDays} options={WINDOWS.map((n) => ({ value: n, label: `${n} days` }))} />
            </div>
            {w.data.expiring.length ? (
              <Rows rows={w.data.expiring} ended={false} />
            ) : (
              <EmptyState title={`No warranty ends in the next ${w.data.days} days`}>Add the warranty end date on a device and it shows here before it runs out.</EmptyState>
            )}
          </section>
          <section className="inv-section" aria-labelledby="expired-title">
            <h2 id="expired-title" className="inv-section__title">
              Ended
            </h2>
            {w.data.expired.length ? <Rows rows={w.data.expired} ended /> : <p className="muted">No warranty has ended yet.</p>}
          </section>
        </>
      )}
    </section>
  );
}
