// /admin/storage: what fills the data disk. One bar per area (archives, maps, AI models, pictures,
// captures, uploads, converted files, the database, logs, caches, the rest) with its size, the disk's
// free space, the last 30 days as small bars and a table, and the clean-up: a dry run lists what is
// safe to remove (failed downloads, expired caches and converted files, scratch files), the admin
// confirms, and exactly that list is removed (POST /api/admin/storage/cleanup with its paths).
import { useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { fmt } from '../../ui/locale';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import type { CleanupItem, CleanupResponse, StorageResponse, TrendPoint } from '../../../../server/modules/storage/schema.js';
import { useCleanup, useStorage } from './queries';
import './storage.css';

const REASONS: Record<CleanupItem['reason'], string> = {
  failed_download: 'Left by a failed or cancelled download',
  expired_cache: 'Cache not used for 30 days',
  expired_conversion: 'Converted file past its 24 hours',
  orphaned_file: 'Belongs to nothing Hearth keeps',
  temporary_file: 'Scratch file of finished work',
};

export function StorageAdminPage(): ReactElement {
  const storage = useStorage();
  let body: ReactElement;
  if (storage.error) body = <ErrorState title="The storage figures did not load" error={storage.error} onRetry={() => void storage.refetch()} />;
  else if (!storage.data) body = <LoadingState label="Measuring the data folder…" />;
  else
    body = (
      <>
        <Disk data={storage.data} />
        <Areas data={storage.data} />
        <Trend trend={storage.data.trend} />
        <Cleanup />
      </>
    );
  return (
    <section className="page storage-admin" aria-labelledby="storage-admin-title">
      <PageHeader titleId="storage-admin-title" title="Storage" description="What fills Hearth’s data disk, how much is free, and what can safely go." />
      {body}
    </section>
  );
}

function Disk({ data }: { data: StorageResponse }): ReactElement {
  const used = data.areas.reduce((n, a) => n + a.bytes, 0);
  if (data.freeBytes === null || data.totalBytes === null || data.totalBytes === 0)
    return (
      <section className="card storage-admin__card" aria-labelledby="storage-disk-title">
        <h2 id="storage-disk-title" className="storage-admin__h2">
          Data disk
        </h2>
        <p>Hearth holds {formatBytes(used)}. The disk’s free space could not be read on this computer.</p>
      </section>
    );
  const freeShare = data.freeBytes / data.totalBytes;
  const low = freeShare < 0.1;
  return (
    <section className="card storage-admin__card" aria-labelledby="storage-disk-title">
      <h2 id="storage-disk-title" className="storage-admin__h2">
        Data disk
      </h2>
      <p className="storage-admin__big">
        <strong>{formatBytes(data.freeBytes)}</strong> free of {formatBytes(data.totalBytes)} ({Math.floor(freeShare * 100)} %)
      </p>
      <div className="storage-admin__bar" aria-hidden="true">
        <span className={`storage-admin__fill${low ? ' storage-admin__fill--low' : ''}`} style={{ width: `${Math.min(100, (1 - freeShare) * 100)}%` }} />
      </div>
      <p className="muted">Hearth’s own files take {formatBytes(used)}; the rest of the used space is the system and other programs.</p>
      {low ? (
        <p className="storage-admin__warn">
          <Icon name="warn" size={20} /> Less than a tenth of the disk is free. Downloads and uploads stop when it runs out: clean up below, or remove archives, maps or models you no longer need.
        </p>
      ) : null}
    </section>
  );
}

function Areas({ data }: { data: StorageResponse }): ReactElement {
  const largest = Math.max(1, ...data.areas.map((a) => a.bytes));
  const shown = [...data.areas].sort((a, b) => b.bytes - a.bytes);
  return (
    <section className="card storage-admin__card" aria-labelledby="storage-areas-title">
      <h2 id="storage-areas-title" className="storage-admin__h2">
        What takes the room
      </h2>
      <ul className="storage-admin__areas">
        {shown.map((a) => (
          <li key={a.key} className="storage-admin__area" data-testid={`storage-area-${a.key}`}>
            <span className="storage-admin__area-label">{a.label}</span>
            <span className="storage-admin__area-size">
              {formatBytes(a.bytes)} <span className="muted">· {a.files === 1 ? '1 file' : `${fmt().number(a.files)} files`}</span>
            </span>
            <span className="storage-admin__bar storage-admin__bar--thin" aria-hidden="true">
              <span className="storage-admin__fill" style={{ width: `${(a.bytes / largest) * 100}%` }} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

const dayLabel = (day: string) => fmt().day(day, 'day');

function Trend({ trend }: { trend: TrendPoint[] }): ReactElement {
  const largest = Math.max(1, ...trend.map((t) => t.usedBytes));
  return (
    <section className="card storage-admin__card" aria-labelledby="storage-trend-title">
      <h2 id="storage-trend-title" className="storage-admin__h2">
        The last 30 days
      </h2>
      {trend.length === 0 ? (
        <p className="muted">Hearth measures its files once a day; the first day’s figure appears here after its first measurement (about a minute after Hearth starts).</p>
      ) : (
        <>
          <div className="storage-admin__chart" aria-hidden="true">
            {trend.map((t) => (
              <span key={t.day} className="storage-admin__column" style={{ height: `${Math.max(4, (t.usedBytes / largest) * 100)}%` }} title={`${dayLabel(t.day)}: ${formatBytes(t.usedBytes)}`} />
            ))}
          </div>
          <details className="storage-admin__details">
            <summary>Each day’s figure</summary>
            <table className="storage-admin__table">
              <caption className="visually-hidden">Bytes Hearth held each day</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Hearth’s files</th>
                </tr>
              </thead>
              <tbody>
                {[...trend].reverse().map((t) => (
                  <tr key={t.day}>
                    <td>{dayLabel(t.day)}</td>
                    <td>{formatBytes(t.usedBytes)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}

function Cleanup(): ReactElement {
  const dry = useCleanup();
  const real = useCleanup();
  const toast = useToast();
  const [found, setFound] = useState<CleanupResponse | null>(null);
  const [freed, setFreed] = useState<CleanupResponse | null>(null);
  const [confirming, setConfirming] = useState(false);
  const look = () => {
    setFreed(null);
    dry.mutate({ dryRun: true }, { onSuccess: (r) => setFound(r) });
  };
  const remove = async () => {
    if (!found) return;
    const r = await real.mutateAsync({ dryRun: false, paths: found.items.map((i) => i.path) });
    setConfirming(false);
    setFound(null);
    setFreed(r);
    toast(`Freed ${formatBytes(r.bytes)}.`);
  };
  return (
    <section className="card storage-admin__card" aria-labelledby="storage-cleanup-title">
      <h2 id="storage-cleanup-title" className="storage-admin__h2">
        Clean up
      </h2>
      <p className="muted">Only files nothing needs any more: what failed or cancelled downloads left, caches not used for 30 days, converted files past their 24 hours and scratch files of finished work. You see the list before anything is removed.</p>
      <div className="storage-admin__actions">
        <button type="button" className="btn btn--secondary" disabled={dry.isPending || real.isPending} onClick={look}>
          {dry.isPending ? <Spinner size={20} /> : <Icon name="search" size={20} />}
          {dry.isPending ? 'Looking…' : 'Find what can go'}
        </button>
      </div>
      <FormError message={dry.error ? errorMessage(dry.error) : null} />
      {freed ? (
        <p className="storage-admin__done" role="status">
          <Icon name="check" size={20} /> Freed {formatBytes(freed.bytes)} ({freed.items.length === 1 ? '1 item' : `${freed.items.length} items`} removed).
        </p>
      ) : null}
      {found && found.items.length === 0 ? (
        <p className="storage-admin__done" role="status">
          Nothing to clean up: every file in the data folder is still in use.
        </p>
      ) : null}
      {found && found.items.length > 0 ? (
        <div className="storage-admin__found">
          <p role="status">
            <strong>{formatBytes(found.bytes)}</strong> can go ({found.items.length === 1 ? '1 item' : `${found.items.length} items`}):
          </p>
          <ul className="storage-admin__items" aria-label="What the clean-up removes">
            {found.items.map((i) => (
              <li key={i.path} className="storage-admin__item">
                <span className="storage-admin__path">{i.path}</span>
                <span className="muted">
                  {REASONS[i.reason]} · {formatBytes(i.bytes)}
                </span>
              </li>
            ))}
          </ul>
          <div className="storage-admin__actions">
            <button type="button" className="btn btn--danger" disabled={real.isPending} onClick={() => setConfirming(true)}>
              <Icon name="trash" size={20} />
              Remove these
            </button>
          </div>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={found ? `Remove ${found.items.length === 1 ? 'this item' : `these ${found.items.length} items`} (${formatBytes(found.bytes)})?` : 'Remove these?'}
        description="Exactly the files listed are removed; they cannot be brought back. Nothing any feature still uses is on the list."
        confirmLabel="Remove"
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
