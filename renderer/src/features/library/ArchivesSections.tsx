// Sections of ArchivesAdminPage.tsx (ArchivesAdminPage), each drawn by the page.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { openPostStream, type StreamHandle } from '../../api/sse';
import type { Level } from '../../api/types';
import { useDeleteArchive, useSetArchiveLevel } from './queries';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { LoadingState } from '../../ui/StateViews';
import { JobProgress } from '../downloads';
import { STATE_TEXT, type ArchivesStatus, type CatalogEntry, type DownloadProgress, type RuntimeInstallStream, type VerifyResult } from './types';


export interface Live {
  phase: 'starting' | 'downloading' | 'verifying' | 'installing';
  progress: DownloadProgress | null;
}

export const PHASE_TEXT: Record<Live['phase'], string> = {
  starting: 'Starting…',
  downloading: 'Downloading',
  verifying: 'Checking the file…',
  installing: 'Opening it in the library…',
};

export function SourceRow({
  src,
  live,
  error,
  variantKey,
  freeBytes,
  onVariant,
  onDownload,
  onCancel,
  onDelete,
}: {
  src: CatalogEntry;
  live: Live | undefined;
  error: string | undefined;
  variantKey: string;
  freeBytes: number | null;
  onVariant: (key: string) => void;
  onDownload: () => void;
  onCancel: () => void;
  onDelete: () => void;
}): ReactElement {
  const variant = src.variants.find((v) => v.key === variantKey) ?? src.variants[0];
  const inst = src.installed;
  const busy = Boolean(live) || src.downloading;
  const tooBig = freeBytes !== null && variant !== undefined && variant.sizeBytes > freeBytes;
  const selectId = `variant-${src.id}`;
  const state = busy ? 'Downloading' : inst?.quarantinedAt ? 'Damaged' : inst ? 'Installed' : 'Not installed';
  return (
    <li className="feature archive-row" aria-label={`${src.label}: ${state}`} data-testid={`archive-${src.id}`}>
      <div className="feature__main">
        <div className="feature__head">
          <span className="feature__name">{src.label}</span>
          {src.bookCategory ? <span className="badge">{src.bookCategory}</span> : <span className="badge">{src.category}</span>}
          {inst && !inst.quarantinedAt ? <span className="badge badge--ok">Installed</span> : null}
          {inst?.quarantinedAt ? <span className="badge badge--error">Damaged</span> : null}
        </div>
        <p className="feature__desc muted">{src.description}</p>
        {inst ? (
          <p className="feature__size muted">
            {[`${formatBytes(inst.fileSizeBytes)} on disk`, inst.zimDate ? `from ${inst.zimDate}` : null, src.variants.find((v) => v.key === inst.variantKey)?.label]
              .filter(Boolean)
              .join(' · ')}
          </p>
        ) : null}
        {inst && !inst.quarantinedAt && !busy ? <ArchiveLevel sourceId={src.id} label={src.label} level={inst.level} /> : null}
        {inst?.quarantinedAt ? <p className="job__error">Set aside: {inst.quarantineReason ?? 'the file is damaged.'} Download it again or delete it.</p> : null}
        {!busy && src.variants.length > 1 ? (
          <div className="archive-row__variant">
            <label htmlFor={selectId}>Version</label>
            <select id={selectId} className="input" value={variant?.key} onChange={(e) => onVariant(e.target.value)}>
              {src.variants.map((v) => (
                <option key={v.key} value={v.key}>
                  {v.label} · {formatBytes(v.sizeBytes)} · {v.date}
                </option>
              ))}
            </select>
          </div>
        ) : variant && !inst ? (
          <p className="feature__size muted">
            {[formatBytes(variant.sizeBytes), variant.label, variant.date].join(' · ')}
          </p>
        ) : null}
        {tooBig && !inst && !busy ? <p className="job__error">Larger than the free space on this computer.</p> : null}
        {live ? (
          <div className="archive-row__progress">
            <p className="job__meta">{PHASE_TEXT[live.phase]}</p>
            {live.progress ? <JobProgress label={`${src.label} download`} figures={live.progress} live={live.phase === 'downloading'} /> : null}
          </div>
        ) : src.downloading ? (
          <p className="job__meta">Downloading in another window.</p>
        ) : null}
        {error ? (
          <p className="job__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="feature__actions">
        {busy ? (
          <button type="button" className="btn btn--danger-ghost btn--compact" aria-label={`Cancel ${src.label}`} onClick={onCancel}>
            <Icon name="close" size={20} />
            <span className="btn__label">Cancel</span>
          </button>
        ) : (
          <>
            {inst ? (
              <button type="button" className="btn btn--danger-ghost btn--compact" aria-label={`Delete ${src.label}`} onClick={onDelete}>
                <Icon name="trash" size={20} />
                <span className="btn__label">Delete</span>
              </button>
            ) : null}
            {!inst || inst.quarantinedAt || inst.variantKey !== variant?.key ? (
              <button type="button" className="btn btn--primary btn--compact" aria-label={`Download ${src.label}`} onClick={onDownload}>
                <Icon name="download" size={20} />
                <span className="btn__label">{inst ? 'Download again' : 'Download'}</span>
              </button>
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}

export function VerifyReport({ results, labelOf, onClose }: { results: VerifyResult[]; labelOf: (id: string) => string; onClose: () => void }): ReactElement {
  const bad = results.filter((r) => !r.ok);
  return (
    <section className={`banner ${bad.length ? 'banner--warn' : 'banner--info'} verify-report`} aria-labelledby="verify-title" data-testid="verify-results">
      <Icon name={bad.length ? 'warn' : 'check'} size={22} />
      <div>
        <h2 id="verify-title" className="verify-report__title">
          {results.length === 0 ? 'There was nothing to check.' : bad.length ? `${bad.length} of ${results.length} archives are damaged` : `All ${results.length} archives are healthy`}
        </h2>
        <ul className="verify-report__list">
          {results.map((r) => (
            <li key={r.sourceId}>
              <strong>{labelOf(r.sourceId)}</strong>: {r.ok ? 'OK' : `set aside: ${r.reason ?? 'damaged'}`}
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn--ghost btn--compact" onClick={onClose}>
          Dismiss
        </button>
      </div>
    </section>
  );
}

export function RuntimePanel({ status, error, onChanged }: { status: ArchivesStatus | undefined; error: unknown; onChanged: () => void }): ReactElement {
  const [installing, setInstalling] = useState<{ state: string; progress: DownloadProgress | null } | null>(null);
  const [problem, setProblem] = useState<{ message: string; command?: string } | null>(null);
  const handle = useRef<StreamHandle | null>(null);
  useEffect(() => () => handle.current?.close(), []);

  const install = () => {
    setProblem(null);
    setInstalling({ state: 'starting', progress: null });
    const stream = openPostStream<RuntimeInstallStream>(
      '/api/admin/archives/install-kiwix',
      {},
      {
        status: (d) => setInstalling((s) => ({ state: d?.state ?? 'working', progress: s?.progress ?? null })),
        progress: (p) => setInstalling((s) => ({ state: s?.state ?? 'downloading', progress: p })),
        done: () => setInstalling(null),
        error: (d) => setProblem({ message: d?.message ?? 'The install failed.' }),
      },
      { closeOn: ['done', 'error'] },
    );
    handle.current = stream;
    stream.done
      .catch((err: unknown) => {
        const command = err instanceof ApiError ? (err.details as { command?: unknown } | undefined)?.command : undefined;
        setProblem({ message: errorMessage(err), command: typeof command === 'string' ? command : undefined });
      })
      .finally(() => {
        handle.current = null;
        setInstalling(null);
        onChanged();
      });
  };

  const healthy = status?.kiwixInstalled && status.kiwixState !== 'failed';
  return (
    <section className="card runtime-panel" aria-labelledby="runtime-title" data-testid="archive-runtime">
      <h2 id="runtime-title" className="feature-group__title">
        Archive server
      </h2>
      {!status ? (
        error ? (
          <p className="job__error">Could not read its status: {errorMessage(error)}</p>
        ) : (
          <LoadingState label="Checking the archive server…" />
        )
      ) : (
        <>
          <p className="runtime-panel__state">
            <Icon name={healthy ? 'check' : 'warn'} size={20} className={healthy ? 'runtime-panel__ok' : 'runtime-panel__warn'} />
            <span data-testid="runtime-state">
              {status.kiwixInstalled ? STATE_TEXT[status.kiwixState] : 'Not installed'}
              {' · '}
              {status.installedCount === 1 ? '1 archive installed' : `${status.installedCount} archives installed`}
            </span>
          </p>
          {status.kiwixError ? <p className="job__error">{status.kiwixError}</p> : null}
          {!status.kiwixInstalled ? (
            <p className="muted">
              Archives open through a small archive server (kiwix-serve). Install it here, or with your system&rsquo;s package manager (for example{' '}
              <code>apt install kiwix-tools</code>); see <a href="https://kiwix.org/en/applications/" target="_blank" rel="noreferrer">kiwix.org</a>.
            </p>
          ) : null}
        </>
      )}
      {installing ? (
        <div className="archive-row__progress">
          <p className="job__meta">Installing the archive server: {installing.state}…</p>
          {installing.progress ? <JobProgress label="Archive server download" figures={installing.progress} /> : null}
        </div>
      ) : null}
      {problem ? (
        <div role="alert">
          <p className="job__error">{problem.message}</p>
          {problem.command ? (
            <p className="muted">
              Run this on the Hearth computer, then check again: <code>{problem.command}</code>
            </p>
          ) : null}
        </div>
      ) : null}
      {status && (!status.kiwixInstalled || status.kiwixState === 'failed') ? (
        <div className="actions">
          <button type="button" className="btn btn--primary btn--compact" onClick={install} disabled={installing !== null}>
            {installing ? <Spinner size={20} /> : <Icon name="download" size={20} />}
            {status.kiwixInstalled ? 'Reinstall archive server' : 'Install archive server'}
          </button>
          <button type="button" className="btn btn--ghost btn--compact" onClick={onChanged} disabled={installing !== null}>
            <Icon name="refresh" size={20} />
            Check again
          </button>
        </div>
      ) : null}
    </section>
  );
}

export function DeleteDialog({ src, onClose, onDeleted }: { src: CatalogEntry | null; onClose: () => void; onDeleted: (s: CatalogEntry) => void }): ReactElement {
  const remove = useDeleteArchive();
  return (
    <ConfirmDialog
      open={src !== null}
      title={src ? `Delete ${src.label}?` : 'Delete'}
      onClose={onClose}
      testId="delete-archive-dialog"
      description={src?.installed ? `It leaves the Library for everyone and frees ${formatBytes(src.installed.fileSizeBytes)}. You can download it again later.` : undefined}
      confirmLabel="Delete"
      onConfirm={async () => {
        if (!src) return;
        await remove.mutateAsync(src.id);
        onDeleted(src);
      }}
    />
  );
}

const LEVEL_CHOICES: ReadonlyArray<[Level, string]> = [
  ['child', 'Everyone (children too)'],
  ['teen', 'Teens and adults'],
  ['adult', 'Adults only'],
];

/** Who finds an installed archive: members whose Archives level is below it do not (issue 32). */
function ArchiveLevel({ sourceId, label, level }: { sourceId: string; label: string; level: Level }): ReactElement {
  const setLevel = useSetArchiveLevel();
  const [error, setError] = useState<string | null>(null);
  const id = `level-${sourceId}`;
  return (
    <div className="archive-row__variant">
      <label htmlFor={id}>Who can see it</label>
      <select
        id={id}
        className="input"
        value={setLevel.isPending ? setLevel.variables.level : level}
        disabled={setLevel.isPending}
        onChange={(e) => {
          setError(null);
          setLevel.mutate({ sourceId, level: e.target.value as Level }, { onError: (err) => setError(`${label}: ${errorMessage(err)}`) });
        }}
      >
        {LEVEL_CHOICES.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
      {error ? (
        <p className="job__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
