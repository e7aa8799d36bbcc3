// Downloads: the household's view of the durable queue, polled every 2 s while visible. Everyone
// sees what is downloading, waiting, failed and done; admins also cancel, retry, reorder waiting
// jobs and pause the queue (members get the same page without the controls).
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { JobProgress } from './JobProgress';
import type { JobProgress as Job } from './types';
import { useJobsStatus, useMoveJob, usePauseQueue, useRetryAllFailed, useRetryJob } from './queries';

import { DONE_SHOWN, MAX_ATTEMPTS, type Move, summaryOf, waitingReason, formatWhen, JobGroup, JobRow, CancelButton, CancelDialog } from './DownloadsSections';

export function DownloadsPage(): ReactElement {
  const user = useUser();
  const isAdmin = user.role === 'admin';
  const status = useJobsStatus();
  // admin actions, one at a time: a toast on success and the server's message on the page on failure; the status is read again after each
  const toast = useToast();
  const pause = usePauseQueue();
  const retryAllFailed = useRetryAllFailed();
  const retryJob = useRetryJob();
  const moveJob = useMoveJob();
  const [actionError, setActionError] = useState<string | null>(null);
  const busy = pause.isPending
    ? 'pause'
    : retryAllFailed.isPending
      ? 'retry-all'
      : retryJob.isPending
        ? `retry:${retryJob.variables}`
        : moveJob.isPending
          ? `move:${moveJob.variables.id}`
          : null;
  const act = async <T,>(run: () => Promise<T>, said: (answer: T) => string) => {
    setActionError(null);
    try {
      toast(said(await run()));
    } catch (err) {
      setActionError(errorMessage(err));
    }
  };
  const [cancelling, setCancelling] = useState<Job | null>(null);
  const [showAllDone, setShowAllDone] = useState(false);

  const data = status.data;
  const jobs = data?.jobs ?? [];
  const running = jobs.filter((j) => j.state === 'running');
  const waiting = jobs.filter((j) => j.state === 'pending');
  const failed = jobs.filter((j) => j.state === 'failed' || j.state === 'cancelled');
  const done = jobs.filter((j) => j.state === 'completed').sort((a, b) => (b.finishedAt ?? '').localeCompare(a.finishedAt ?? ''));
  const failedCount = data?.counts.failed ?? 0;


  const setPaused = (paused: boolean) =>
    act(
      () => pause.mutateAsync(paused),
      () => (paused ? 'The queue is paused.' : 'The queue is running again.'),
    );

  const retryAll = () =>
    act(
      () => retryAllFailed.mutateAsync(),
      (retried) => (retried === 1 ? 'Trying 1 download again.' : `Trying ${retried} downloads again.`),
    );

  const retry = (job: Job) =>
    act(
      () => retryJob.mutateAsync(job.id),
      () => `Trying ${job.label} again.`,
    );

  const move = (job: Job, direction: Move) =>
    act(
      () => moveJob.mutateAsync({ id: job.id, direction }),
      () => `${job.label} moved ${direction}.`,
    );

  const labelsOf = (ids: string[]) => ids.map((id) => jobs.find((j) => j.id === id)).filter((j): j is Job => Boolean(j && j.state !== 'completed'));

  return (
    <section className="page downloads" aria-labelledby="downloads-title">
      <div className="page__head">
        <div>
          <h1 id="downloads-title" className="page__title">
            Downloads
          </h1>
          <p className="muted" data-testid="downloads-summary">
            {data ? summaryOf(data) : 'Models, archives and components Hearth is fetching.'}
          </p>
        </div>
        {isAdmin && data ? (
          <div className="page__actions">
            {failedCount > 0 ? (
              <button type="button" className="btn btn--secondary btn--compact" onClick={() => void retryAll()} disabled={busy !== null}>
                {busy === 'retry-all' ? <Spinner size={20} /> : <Icon name="refresh" size={20} />}
                Retry all failed
              </button>
            ) : null}
            <button type="button" className="btn btn--secondary btn--compact" onClick={() => void setPaused(!data.paused)} disabled={busy !== null}>
              {busy === 'pause' ? <Spinner size={20} /> : <Icon name={data.paused ? 'play' : 'pause'} size={20} />}
              {data.paused ? 'Resume queue' : 'Pause queue'}
            </button>
          </div>
        ) : null}
      </div>

      <FormError message={actionError} />

      {data?.offline ? (
        <p className="banner banner--warn" data-testid="offline-banner">
          <Icon name="warn" size={22} />
          <span>Hearth is in offline mode, so nothing downloads from the internet. Downloads wait here until offline mode is off (Admin › Connectivity says who switched it on and how to go online).</span>
        </p>
      ) : null}
      {data?.paused ? (
        <p className="banner banner--info" data-testid="paused-banner">
          <Icon name="pause" size={22} />
          <span>The queue is paused: downloads already running finish, nothing new starts{isAdmin ? ' until you resume it' : ''}.</span>
        </p>
      ) : null}
      {data && status.error ? (
        <p className="banner banner--warn" role="status">
          <Icon name="warn" size={22} />
          <span>Could not refresh: {errorMessage(status.error)} Showing what Hearth said last.</span>
        </p>
      ) : null}

      {!data ? (
        status.error ? (
          <ErrorState title="Downloads did not load" error={status.error} onRetry={status.refresh} />
        ) : (
          <LoadingState label="Loading downloads…" />
        )
      ) : jobs.length === 0 ? (
        <EmptyState
          title="Nothing to download"
          action={
            isAdmin ? (
              <Link to="/features" className="btn btn--secondary">
                <Icon name="sliders" size={20} />
                Add features
              </Link>
            ) : null
          }
        >
          {isAdmin ? 'Downloads appear here when you add features.' : 'When the admin adds features, their downloads appear here.'}
        </EmptyState>
      ) : (
        <>
          <JobGroup id="running" title="Downloading now" jobs={running}>
            {(j) => (
              <JobRow key={j.id} job={j}>
                <JobProgress label={`${j.label} progress`} figures={j} />
                {j.attempts > 1 ? <p className="job__meta">Attempt {j.attempts} of {MAX_ATTEMPTS}</p> : null}
                {isAdmin ? (
                  <div className="job__actions">
                    <CancelButton job={j} disabled={busy !== null} onClick={() => setCancelling(j)} />
                  </div>
                ) : null}
              </JobRow>
            )}
          </JobGroup>

          <JobGroup id="waiting" title="Waiting" jobs={waiting}>
            {(j, i) => (
              <JobRow key={j.id} job={j}>
                {j.bytesDone > 0 ? <JobProgress label={`${j.label} progress`} figures={j} live={false} /> : null}
                <p className="job__meta">{waitingReason(j, i, data, labelsOf(j.requires))}</p>
                {j.lastError ? <p className="job__error">Last try: {j.lastError}</p> : null}
                {isAdmin ? (
                  <div className="job__actions">
                    <button
                      type="button"
                      className="btn btn--secondary btn--icon"
                      aria-label={`Move ${j.label} up`}
                      onClick={() => void move(j, 'up')}
                      disabled={busy !== null || i === 0}
                    >
                      <Icon name="up" size={20} />
                    </button>
                    <button
                      type="button"
                      className="btn btn--secondary btn--icon"
                      aria-label={`Move ${j.label} down`}
                      onClick={() => void move(j, 'down')}
                      disabled={busy !== null || i === waiting.length - 1}
                    >
                      <Icon name="down" size={20} />
                    </button>
                    <CancelButton job={j} disabled={busy !== null} onClick={() => setCancelling(j)} />
                  </div>
                ) : null}
              </JobRow>
            )}
          </JobGroup>

          <JobGroup id="failed" title="Failed or cancelled" jobs={failed}>
            {(j) => (
              <JobRow key={j.id} job={j}>
                {j.state === 'failed' ? (
                  <>
                    <p className="job__error" data-testid="job-error">
                      {j.lastError ?? 'It stopped without saying why.'}
                    </p>
                    <p className="job__meta">
                      Tried {j.attempts} {j.attempts === 1 ? 'time' : 'times'}
                      {j.finishedAt ? `, gave up ${formatWhen(j.finishedAt)}` : ''}
                    </p>
                  </>
                ) : (
                  <p className="job__meta">Cancelled{j.finishedAt ? ` ${formatWhen(j.finishedAt)}` : ''}. The part downloaded so far was deleted.</p>
                )}
                {isAdmin ? (
                  <div className="job__actions">
                    <button
                      type="button"
                      className="btn btn--secondary btn--compact"
                      aria-label={`Retry ${j.label}`}
                      onClick={() => void retry(j)}
                      disabled={busy !== null}
                    >
                      {busy === `retry:${j.id}` ? <Spinner size={20} /> : <Icon name="refresh" size={20} />}
                      <span className="btn__label">Retry</span>
                    </button>
                  </div>
                ) : null}
              </JobRow>
            )}
          </JobGroup>

          <JobGroup id="done" title="Done" jobs={showAllDone ? done : done.slice(0, DONE_SHOWN)} total={done.length}>
            {(j) => (
              <JobRow key={j.id} job={j}>
                <p className="job__meta">
                  {[j.bytesTotal ? formatBytes(j.bytesTotal) : null, j.finishedAt ? `finished ${formatWhen(j.finishedAt)}` : null].filter(Boolean).join(', ')}
                </p>
              </JobRow>
            )}
          </JobGroup>
          {done.length > DONE_SHOWN ? (
            <p>
              <button type="button" className="btn btn--ghost" onClick={() => setShowAllDone((v) => !v)} aria-expanded={showAllDone}>
                {showAllDone ? 'Show fewer' : `Show all ${done.length} done`}
              </button>
            </p>
          ) : null}
        </>
      )}

      <CancelDialog
        job={cancelling}
        onClose={() => setCancelling(null)}
        onCancelled={(j) => {
          setCancelling(null);
          toast(`${j.label} was cancelled.`);
        }}
      />
    </section>
  );
}
