// Pieces the image pages share: the sub-navigation (Create, Edit, My pictures), the engine's honest
// state (not set up, getting ready, failed: each in a sentence, with what an admin does or what a
// member asks for), a job on its way (queue place, step bar, live preview, Cancel) and a finished
// picture or clip with Download and Delete, and the buttons under it (Edit, Animate) as each can run.
import { useState, type ReactElement, type ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon, Spinner } from '../../ui/icons';
import type { ImageJob } from './useImageJob';
import { useDeleteArtifact } from './queries';
import { animateHref, artifactTitle, CREATE_HREF, downloadName, EDIT_HREF, ENGINE_ADMIN_HREF, HISTORY_HREF, isClip, PIPELINE_TEXT, type Artifact, type ImageStatusResponse, type Pipeline } from './types';

export function ImageSubnav(): ReactElement {
  const links = [
    { to: CREATE_HREF, label: 'Create', icon: 'sparkles' as const },
    { to: EDIT_HREF, label: 'Edit', icon: 'edit' as const },
    { to: HISTORY_HREF, label: 'My pictures', icon: 'grid' as const },
  ];
  return (
    <nav className="img-subnav" aria-label="Pictures">
      {links.map((l) => (
        <NavLink key={l.to} to={l.to} end className="btn btn--ghost btn--compact img-subnav__link">
          <Icon name={l.icon} size={20} />
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
}

export type EngineReadiness = 'ready' | 'starting' | 'not-set-up' | 'failed';

export function readinessOf(s: ImageStatusResponse): EngineReadiness {
  if (!s.configured) return 'not-set-up';
  if (s.state === 'ready') return 'ready';
  if (s.state === 'failed') return 'failed';
  return 'starting';
}

export function availabilityOf(s: ImageStatusResponse | undefined, pipeline: Pipeline): { available: boolean; reason: string | null } {
  const p = s?.pipelines.find((x) => x.pipeline === pipeline);
  if (!p) return { available: false, reason: `${PIPELINE_TEXT[pipeline]} is not available on this computer.` };
  return { available: p.available, reason: p.available ? null : (p.reason ?? `${PIPELINE_TEXT[pipeline]} is not set up on this computer yet.`) };
}

/** The engine's state when it is not ready, in words; nothing when it is. */
/** `children`: a line for this page (what works meanwhile), shown under the not-set-up and failed notes. */
export function EngineNotice({ status, children }: { status: ImageStatusResponse; children?: ReactNode }): ReactElement | null {
  const isAdmin = useUser().role === 'admin';
  const readiness = readinessOf(status);
  if (readiness === 'ready') return null;
  const adminLink = isAdmin ? (
    <Link className="btn btn--primary btn--compact" to={ENGINE_ADMIN_HREF}>
      <Icon name="sliders" size={20} />
      Open the image engine settings
    </Link>
  ) : null;
  if (readiness === 'not-set-up')
    return (
      <div className="img-notice" data-testid="engine-not-set-up" role="status">
        <Icon name="sparkles" size={28} />
        <div>
          <p className="img-notice__title">The picture maker is not set up yet</p>
          <p className="muted">
            {isAdmin
              ? 'Hearth needs the image engine (ComfyUI) on this computer. Tell Hearth where it is installed and which picture model to use, then come back here.'
              : 'An admin in your household needs to set it up on this computer first. Ask them to open Admin, then Image engine.'}
          </p>
          {children ? <p className="muted">{children}</p> : null}
          {adminLink}
        </div>
      </div>
    );
  if (readiness === 'starting')
    return (
      <div className="img-notice" data-testid="engine-starting" role="status">
        <Spinner size={24} />
        <div>
          <p className="img-notice__title">{status.state === 'installing' ? 'The picture maker is being set up' : 'The picture maker is getting ready'}</p>
          <p className="muted">
            {status.state === 'installing' ? 'Hearth is installing what it needs. This can take a while, sometimes an hour.' : 'This can take a few minutes the first time after the computer starts.'} This page carries on by itself when it is ready.
          </p>
        </div>
      </div>
    );
  return (
    <div className="img-notice img-notice--error" data-testid="engine-failed" role="alert">
      <Icon name="warn" size={28} />
      <div>
        <p className="img-notice__title">The picture maker is not working right now</p>
        <p>{status.error ?? 'It stopped unexpectedly.'}</p>
        <p className="muted">{isAdmin ? 'The image engine page shows what it wrote before it stopped.' : 'Let an admin in your household know.'}</p>
        {children ? <p className="muted">{children}</p> : null}
        {adminLink}
      </div>
    </div>
  );
}

/** The banner of a job that ended without a picture: stopped (`stopped` says what was kept) or failed. */
export function JobEndBanner({ job, stopped }: { job: ImageJob; stopped: string }): ReactElement | null {
  if (job.state.phase === 'cancelled')
    return (
      <p className="banner banner--info" role="status" data-testid="job-cancelled">
        <Icon name="close" size={22} />
        <span>{stopped}</span>
      </p>
    );
  if (job.state.phase === 'failed')
    return (
      <p className="banner banner--error" role="alert" data-testid="job-failed">
        <Icon name="warn" size={22} />
        <span>{job.state.error}</span>
      </p>
    );
  return null;
}

/** A job on its way: its place in the queue, then the step bar and the latest preview frame, with Cancel. */
export function JobView({ job, what = 'picture', original }: { job: ImageJob; what?: string; original?: ReactNode }): ReactElement | null {
  const { state } = job;
  const [cancelError, setCancelError] = useState<string | null>(null);
  if (!job.running) return null;
  const pct = state.total > 0 ? Math.min(100, Math.round((state.current / state.total) * 100)) : 0;
  const line =
    state.phase === 'starting'
      ? 'Sending…'
      : state.phase === 'queued'
        ? state.position && state.position > 1
          ? `Waiting for its turn: ${state.position - 1} ${state.position - 1 === 1 ? 'picture is' : 'pictures are'} ahead`
          : 'Next in line…'
        : state.total > 0
          ? `Drawing: step ${state.current} of ${state.total}`
          : 'Drawing…';
  return (
    <section className="img-job" aria-label={`Your ${what} on its way`} data-testid="job-view">
      <div className="img-job__frame">
        {state.preview ? (
          <img className="img-job__preview" src={state.preview} alt={`Preview of your ${what} so far`} data-testid="job-preview" />
        ) : original ? (
          original
        ) : (
          <div className="img-job__placeholder">
            <Spinner size={32} />
          </div>
        )}
      </div>
      <p className="img-job__line" role="status" aria-live="polite" data-testid="job-line">
        {line}
      </p>
      {state.phase === 'drawing' && state.total > 0 ? (
        <div className="progress" role="progressbar" aria-label="Drawing progress" aria-valuemin={0} aria-valuemax={state.total} aria-valuenow={state.current} data-testid="job-steps">
          <div className="progress__bar" style={{ width: `${pct}%` }} />
        </div>
      ) : null}
      <div className="actions">
        <button
          type="button"
          className="btn btn--secondary"
          disabled={job.cancelling}
          onClick={() => {
            setCancelError(null);
            job.cancel().catch((err: unknown) => setCancelError(errorMessage(err)));
          }}
          data-testid="job-cancel"
        >
          {job.cancelling ? <Spinner size={18} /> : <Icon name="close" size={20} />}
          {job.cancelling ? 'Stopping…' : 'Cancel'}
        </button>
      </div>
      {cancelError ? <p className="form-error">{cancelError}</p> : null}
    </section>
  );
}

/** A finished picture: shown large, with Download and Delete (asks first). */
/** A clip is an animated WebP: the same <img> plays it, over and over. */
export function ArtifactView({ artifact, onDeleted, children }: { artifact: Artifact; onDeleted?: () => void; children?: ReactNode }): ReactElement {
  const [asking, setAsking] = useState(false);
  const del = useDeleteArtifact();
  const title = artifactTitle(artifact);
  const clip = isClip(artifact);
  return (
    <figure className="img-result" data-testid="artifact-view">
      <img className="img-result__img" src={artifact.url} alt={clip ? `Clip: ${title}` : title} width={artifact.width ?? undefined} height={artifact.height ?? undefined} />
      <figcaption className="img-result__caption">
        {clip ? (
          <span className="img-badge" data-testid="clip-badge">
            Clip
          </span>
        ) : null}
        {title}
      </figcaption>
      <div className="actions img-result__actions">
        <a className="btn btn--secondary btn--compact" href={artifact.url} download={downloadName(artifact)}>
          <Icon name="download" size={20} />
          Download
        </a>
        {children}
        <button type="button" className="btn btn--danger-ghost btn--compact" onClick={() => setAsking(true)}>
          <Icon name="trash" size={20} />
          Delete
        </button>
      </div>
      <ConfirmDialog
        open={asking}
        title={clip ? 'Delete this clip?' : 'Delete this picture?'}
        description="It goes from your pictures for good."
        confirmLabel="Delete"
        onConfirm={async () => {
          await del.mutateAsync(artifact.id);
          setAsking(false);
          onDeleted?.();
        }}
        onClose={() => setAsking(false)}
      />
    </figure>
  );
}

/**
 * What a finished picture offers besides Download and Delete: Edit, and Animate (i2v) when this
 * engine can bring a picture to life (otherwise not offered). A clip is not edited or animated again.
 */
export function PictureActions({ artifact, status }: { artifact: Artifact; status: ImageStatusResponse | undefined }): ReactElement | null {
  if (isClip(artifact)) return null;
  const i2v = availabilityOf(status, 'i2v');
  return (
    <>
      <Link className="btn btn--secondary btn--compact" to={`${EDIT_HREF}?source=${encodeURIComponent(artifact.id)}`}>
        <Icon name="edit" size={20} />
        Edit
      </Link>
      {status && readinessOf(status) === 'ready' && i2v.available ? (
        <Link className="btn btn--secondary btn--compact" to={animateHref(artifact.id)} state={{ title: artifactTitle(artifact) }} data-testid="animate-link">
          <Icon name="sparkles" size={20} />
          Animate
        </Link>
      ) : null}
    </>
  );
}
