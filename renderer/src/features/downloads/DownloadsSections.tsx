// Sections of DownloadsPage.tsx (DownloadsPage), each drawn by the page.
import { type ReactElement, type ReactNode } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { formatDuration } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { JOB_STATE_TEXT } from './JobProgress';
import type { JobProgress as Job, JobsStatus } from './types';
import { useCancelJob } from './queries';
import { fmt } from '../../ui/locale';


export const KIND_TEXT: Record<Job['kind'], string> = {
  archive: 'Archive',
  map: 'Map',
  model: 'Model file',
  component: 'Component',
  runtime_model: 'AI model',
  podcast: 'Podcast episode',
  video: 'Saved video',
};

/** Done jobs shown before "Show all". */
export const DONE_SHOWN = 10;
export const MAX_ATTEMPTS = 6;

export type Move = 'up' | 'down';

export function summaryOf(s: JobsStatus): string {
  const { running, pending, failed, completed } = s.counts;
  const parts = [running ? `${running} downloading` : null, pending ? `${pending} waiting` : null, failed ? `${failed} failed` : null].filter(Boolean);
  if (parts.length) return `${parts.join(', ')}.`;
  return completed ? 'Everything is downloaded.' : 'Nothing is downloading.';
}

export function waitingReason(job: Job, index: number, s: JobsStatus, blockers: Job[]): string {
  if (blockers.length) return `Starts after ${blockers.map((b) => b.label).join(' and ')}.`;
  if (s.offline && job.hostClass !== 'local') return 'Waits until Hearth runs without offline mode.';
  if (job.nextAttemptAt && job.lastError) {
    const seconds = (new Date(job.nextAttemptAt).getTime() - Date.now()) / 1000;
    return seconds > 1 ? `Tries again in ${formatDuration(seconds)} (attempt ${job.attempts + 1} of ${MAX_ATTEMPTS}).` : 'Trying again…';
  }
  if (s.paused) return `Number ${index + 1} in line; starts when the queue is resumed.`;
  return index === 0 ? 'Next in line.' : `Number ${index + 1} in line.`;
}

export function formatWhen(iso: string): string {
  const d = new Date(iso);
  const today = new Date();
  const time = fmt().time(d);
  return fmt().date(d, 'short') === fmt().date(today, 'short') ? `at ${time}` : `on ${fmt().date(d, 'day')} at ${time}`;
}

export function JobGroup({
  id,
  title,
  jobs,
  total,
  children,
}: {
  id: string;
  title: string;
  jobs: Job[];
  total?: number;
  children: (job: Job, index: number) => ReactElement;
}): ReactElement | null {
  if (jobs.length === 0) return null;
  const headingId = `jobs-${id}-title`;
  return (
    <section className="job-group" aria-labelledby={headingId} data-testid={`jobs-${id}`}>
      <h2 id={headingId} className="job-group__title">
        {title} <span className="badge">{total ?? jobs.length}</span>
      </h2>
      <ul className="job-list">{jobs.map((j, i) => children(j, i))}</ul>
    </section>
  );
}

export function JobRow({ job, children }: { job: Job; children: ReactNode }): ReactElement {
  return (
    <li className={`job job--${job.state}`} aria-label={`${job.label}: ${JOB_STATE_TEXT[job.state]}`}>
      <div className="job__head">
        <span className="job__label">{job.label}</span>
        <span className="badge">{KIND_TEXT[job.kind]}</span>
        {job.state === 'cancelled' ? <span className="badge badge--warn">Cancelled</span> : null}
        {job.state === 'failed' ? <span className="badge badge--error">Failed</span> : null}
      </div>
      {children}
    </li>
  );
}

export function CancelButton({ job, disabled, onClick }: { job: Job; disabled: boolean; onClick: () => void }): ReactElement {
  return (
    <button type="button" className="btn btn--danger-ghost btn--compact" aria-label={`Cancel ${job.label}`} onClick={onClick} disabled={disabled}>
      <Icon name="close" size={20} />
      <span className="btn__label">Cancel</span>
    </button>
  );
}

export function CancelDialog({ job, onClose, onCancelled }: { job: Job | null; onClose: () => void; onCancelled: (j: Job) => void }): ReactElement {
  const cancel = useCancelJob();
  return (
    <ConfirmDialog
      open={job !== null}
      title={job ? `Cancel ${job.label}?` : 'Cancel'}
      testId="cancel-dialog"
      description="What was downloaded so far is deleted. You can start it again later with Retry."
      cancelLabel="Keep downloading"
      confirmLabel="Cancel download"
      confirmIcon="close"
      onClose={onClose}
      onConfirm={async () => {
        if (!job) return;
        await cancel.mutateAsync(job.id);
        onCancelled(job);
      }}
    />
  );
}
