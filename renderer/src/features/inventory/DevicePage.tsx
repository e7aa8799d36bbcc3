// One device: its photos (make one the main photo, add more, delete), its details (edited in a
// dialog with the same form as Add), warranty in words, the manual (opened as a PDF in a new tab),
// Ask the manual, files (download, comment, delete, upload a receipt or manual), links grouped by
// kind, the service log with maintenance suggestions from the manual, and where the web lookup is
// ("Looking up the manual…", failed with the reason and Try again, skipped with the reason). The
// device is read again every 3 s while it is being looked up (queries.ts). Delete only for whoever
// added it or an admin.
import { type ReactElement } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { usePageTitle } from '../../ui/usePageTitle';
import { useDevice } from './queries';
import { INVENTORY_HREF } from './types';
import './inventory.css';

import { DeviceView } from './DevicePageSections';

export function DevicePage(): ReactElement {
  const { id = '' } = useParams();
  const device = useDevice(id);
  usePageTitle(device.data?.name ?? 'Inventory');
  return (
    <section className="page inv-device" aria-labelledby="device-title">
      <Link to={INVENTORY_HREF} className="btn btn--ghost btn--compact inv-back">
        <Icon name="back" size={20} />
        Inventory
      </Link>
      {device.data ? (
        <DeviceView device={device.data} />
      ) : device.error ? (
        device.error instanceof ApiError && device.error.status === 404 ? (
          <div className="state state--error" role="alert">
            <h1 id="device-title" className="state__title">
              This device is not in the inventory
            </h1>
            <p className="state__body">It may have been deleted. Go back to the inventory to look for it.</p>
            <Link to={INVENTORY_HREF} className="btn btn--secondary">
              Back to the inventory
            </Link>
          </div>
        ) : (
          <>
            <h1 id="device-title" className="visually-hidden">
              Device
            </h1>
            <ErrorState title="This device did not load" error={device.error} onRetry={() => void device.refetch()} />
          </>
        )
      ) : (
        <>
          <h1 id="device-title" className="visually-hidden">
            Device
          </h1>
          <LoadingState label="Loading the device…" />
        </>
      )}
    </section>
  );
}
