// Archives (admin): the archive catalog with sizes and variants, free disk, downloads with live
// progress (one event stream per download; closing the page stops them, and a later download
// resumes), cancel, delete, verify with per-archive results, and the archive server's runtime.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { openPostStream, type StreamHandle } from '../../api/sse';
import { useFeaturePlan } from '../features-admin';
import { useArchiveCatalog, useArchivesChanged, useArchivesStatus, useCancelArchiveDownload, useVerifyArchives } from './queries';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import './library.css';
import { isBook, type CatalogEntry, type DownloadStream, type VerifyResult } from './types';

import { type Live, SourceRow, VerifyReport, RuntimePanel, DeleteDialog } from './ArchivesSections';

export function ArchivesAdminPage(): ReactElement {
  const catalog = useArchiveCatalog();
  const status = useArchivesStatus();
  const plan = useFeaturePlan();
  const freeBytes = plan.data?.disk.freeBytes ?? null;
  const cancelDownload = useCancelArchiveDownload();
  const verifyArchives = useVerifyArchives();
  const verifying = verifyArchives.isPending;
  const [live, setLive] = useState<Record<string, Live>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [variants, setVariants] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<CatalogEntry | null>(null);
  const [verifyResults, setVerifyResults] = useState<VerifyResult[] | null>(null);
  const streams = useRef(new Map<string, StreamHandle>());

  useEffect(() => {
    const open = streams.current;
    return () => {
      for (const s of open.values()) s.close();
      open.clear();
    };
  }, []);

  const sources = catalog.data?.sources ?? [];
  const labelOf = (id: string) => sources.find((s) => s.id === id)?.label ?? id;

  // after a download or the archive server's install: everything an archive changes is read again
  const refresh = useArchivesChanged();

  const finish = (id: string, message: string | null, error: string | null) => {
    streams.current.get(id)?.close();
    streams.current.delete(id);
    setLive(({ [id]: _gone, ...rest }) => rest);
    if (error) setErrors((e) => ({ ...e, [id]: error }));
    if (message) setNotice(message);
    refresh();
  };

  const download = (src: CatalogEntry) => {
    if (streams.current.has(src.id)) return;
    const variantKey = variants[src.id] ?? src.variants[0]?.key;
    setNotice(null);
    setErrors(({ [src.id]: _old, ...rest }) => rest);
    setLive((l) => ({ ...l, [src.id]: { phase: 'starting', progress: null } }));
    let heard = false;
    // a POST starts it (a GET only watches one that runs); the answer is its event stream, and a
    // refusal (offline mode, already downloading, no room) comes back as the server's own sentence
    const handle = openPostStream<DownloadStream>(
      `/api/admin/archives/download/${encodeURIComponent(src.id)}`,
      variantKey ? { variantKey } : {},
      {
        status: (d) => {
          heard = true;
          const phase = d.state;
          const bytesTotal = d.state === 'downloading' ? d.bytesTotal : null;
          setLive((l) => ({
            ...l,
            [src.id]: { phase, progress: l[src.id]?.progress ?? (bytesTotal ? { bytesDone: 0, bytesTotal, speedBps: 0, etaSeconds: null } : null) },
          }));
        },
        progress: (p) => {
          heard = true;
          setLive((l) => ({ ...l, [src.id]: { phase: l[src.id]?.phase === 'starting' ? 'downloading' : (l[src.id]?.phase ?? 'downloading'), progress: p } }));
        },
        done: () => finish(src.id, `${src.label} is installed and in the Library.`, null),
        cancelled: () => finish(src.id, `${src.label} was cancelled.`, null),
        error: (d) => finish(src.id, null, d?.message ?? 'The download failed.'),
      },
      { closeOn: ['done', 'cancelled', 'error'] },
    );
    // only this download's own stream may finish it (not a later one for the same archive)
    const mine = () => streams.current.get(src.id) === handle;
    handle.done.then(
      // the server ended the stream without a final event
      () => {
        if (mine()) finish(src.id, null, heard ? 'Lost touch with Hearth during the download. Download again to continue where it stopped.' : 'The download did not start.');
      },
      (err: unknown) => {
        if (!mine()) return;
        const refused = err instanceof ApiError && err.code !== 'stream_lost';
        finish(
          src.id,
          null,
          refused ? err.message : heard ? 'Lost touch with Hearth during the download. Download again to continue where it stopped.' : errorMessage(err),
        );
      },
    );
    streams.current.set(src.id, handle);
  };

  const cancel = async (src: CatalogEntry) => {
    setActionError(null);
    try {
      await cancelDownload.mutateAsync(src.id);
      if (!streams.current.has(src.id)) setNotice(`${src.label} was cancelled.`);
    } catch (err) {
      setActionError(errorMessage(err));
    }
  };

  const verify = async () => {
    setActionError(null);
    setNotice(null);
    try {
      setVerifyResults(await verifyArchives.mutateAsync());
    } catch (err) {
      setActionError(errorMessage(err));
    }
  };

  const installedCount = sources.filter((s) => s.installed).length;
  const groups: Array<[string, string, CatalogEntry[]]> = [
    ['reference', 'Reference', sources.filter((s) => !isBook(s))],
    ['books', 'Books', sources.filter(isBook)],
  ];

  return (
    <section className="page archives-admin" aria-labelledby="archives-title">
      <div className="page__head">
        <div>
          <h1 id="archives-title" className="page__title">
            Archives
          </h1>
          <p className="muted" data-testid="archives-summary">
            Offline encyclopedias and books for the <Link to="/library">Library</Link>.
            {freeBytes !== null ? ` ${formatBytes(freeBytes)} free on this computer.` : ''}
          </p>
        </div>
        {installedCount > 0 ? (
          <div className="page__actions">
            <button type="button" className="btn btn--secondary btn--compact" onClick={() => void verify()} disabled={verifying}>
              {verifying ? <Spinner size={20} /> : <Icon name="check" size={20} />}
              {verifying ? 'Checking…' : 'Verify archives'}
            </button>
          </div>
        ) : null}
      </div>

      <p className="notice" role="status" aria-live="polite" data-testid="archives-notice">
        {notice ?? ''}
      </p>
      <FormError message={actionError} />

      {verifyResults ? <VerifyReport results={verifyResults} labelOf={labelOf} onClose={() => setVerifyResults(null)} /> : null}

      <RuntimePanel status={status.data} error={status.error} onChanged={refresh} />

      {!catalog.data ? (
        catalog.error ? (
          <ErrorState title="The archive catalog did not load" error={catalog.error} onRetry={() => void catalog.refetch()} />
        ) : (
          <LoadingState label="Loading the catalog…" />
        )
      ) : sources.length === 0 ? (
        <EmptyState title="The catalog is empty">Hearth has no archives to offer. Check the archive catalog file.</EmptyState>
      ) : (
        <>
          {Object.keys(live).length > 0 ? <p className="muted">Keep this page open while archives download; closing it pauses them.</p> : null}
          {groups.map(([id, title, list]) =>
            list.length ? (
              <section key={id} className="card feature-group" aria-labelledby={`archives-${id}-title`} data-testid={`archives-${id}`}>
                <h2 id={`archives-${id}-title`} className="feature-group__title">
                  {title}
                </h2>
                <ul className="feature-list">
                  {list.map((src) => (
                    <SourceRow
                      key={src.id}
                      src={src}
                      live={live[src.id]}
                      error={errors[src.id]}
                      variantKey={variants[src.id] ?? src.installed?.variantKey ?? src.variants[0]?.key ?? ''}
                      freeBytes={freeBytes}
                      onVariant={(k) => setVariants((v) => ({ ...v, [src.id]: k }))}
                      onDownload={() => download(src)}
                      onCancel={() => void cancel(src)}
                      onDelete={() => setDeleting(src)}
                    />
                  ))}
                </ul>
              </section>
            ) : null,
          )}
        </>
      )}

      <DeleteDialog
        src={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(src) => {
          setDeleting(null);
          setNotice(`${src.label} was deleted.`);
        }}
      />
    </section>
  );
}
