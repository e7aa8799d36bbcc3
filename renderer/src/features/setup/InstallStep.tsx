// Wizard step: installing the essentials. Checks the model runtime first: the essentials are
// models, so without Ollama the server installs only the extras that need no model and this step
// says what was not installed and why (Check again installs the rest once Ollama runs). With the
// runtime it follows POST /api/setup/download with a progress bar per job.
// The jobs live in the server's durable queue, so a reload simply opens the stream again and
// re-attaches; an error shows the server's message with Try again (which re-queues what failed).
import { useEffect, useRef, useState, type ReactElement, type Ref } from 'react';
import { api, ApiError, errorMessage } from '../../api/client';
import { openPostStream, type PostStreamHandle } from '../../api/sse';
import type { ModelRuntimeStatus, SetupInstallEvents } from '../../api/types';
import { Icon, Spinner } from '../../ui/icons';
import { JOB_STATE_TEXT, JobProgress } from '../downloads';

/** The install stream's events, and the stream runner's `error {code, message}`. */
type InstallStreamEvents = SetupInstallEvents & { error: { code: string; message: string } };

type Phase =
  | { kind: 'checking' }
  | { kind: 'no-runtime'; installed: boolean; result: { queued: number; notInstalled: string[]; reason: string } | null }
  | { kind: 'installing' }
  | { kind: 'done'; queued: number }
  | { kind: 'failed'; message: string; refused: boolean };

export function InstallStep({
  headingRef,
  extras,
  finished,
  onInstalled,
  onBack,
  onFinish,
}: {
  headingRef: Ref<HTMLHeadingElement>;
  extras: string[];
  /** Set when an earlier visit already saw the install through (nothing is opened again). */
  finished: { queued: number } | null;
  onInstalled: (queued: number) => void;
  onBack: () => void;
  onFinish: () => void;
}): ReactElement {
  const [phase, setPhase] = useState<Phase>(() => (finished ? { kind: 'done', queued: finished.queued } : { kind: 'checking' }));
  const [attempt, setAttempt] = useState(0);
  const [essentials, setEssentials] = useState<InstallStreamEvents['plan']['essentials']>([]);
  const [jobs, setJobs] = useState<InstallStreamEvents['plan']['jobs'] | null>(null);
  const [progress, setProgress] = useState<Record<string, InstallStreamEvents['progress']>>({});
  // the choices and the resume state as they were when the step opened
  const [extrasKey] = useState(() => JSON.stringify(extras));
  const [resumedDone] = useState(() => finished !== null);
  // the latest callback, without restarting the stream when the parent re-renders
  const onInstalledRef = useRef(onInstalled);
  onInstalledRef.current = onInstalled;

  useEffect(() => {
    if (resumedDone && attempt === 0) return;
    const controller = new AbortController();
    let stream: PostStreamHandle | null = null;
    let stopped = false;
    (async () => {
      setPhase({ kind: 'checking' });
      let runtime: ModelRuntimeStatus;
      try {
        runtime = await api.get<ModelRuntimeStatus>('/api/setup/ollama-status', { signal: controller.signal });
      } catch (err) {
        if (!stopped) setPhase({ kind: 'failed', message: errorMessage(err), refused: false });
        return;
      }
      if (stopped) return;
      const withRuntime = runtime.running;
      if (!withRuntime) setPhase({ kind: 'no-runtime', installed: runtime.installed, result: null });
      else setPhase({ kind: 'installing' });
      setJobs(null);
      setProgress({});
      let ended = false;
      stream = openPostStream<InstallStreamEvents>(
        '/api/setup/download',
        { extras: JSON.parse(extrasKey) as string[] },
        {
          plan: (p) => {
            setEssentials(p.essentials);
            setJobs(p.jobs);
          },
          progress: (p) => setProgress((prev) => ({ ...prev, [p.jobId]: p })),
          done: (d) => {
            ended = true;
            if (d.notInstalled) {
              // the runtime-free extras are queued; the models wait for Ollama
              setPhase({ kind: 'no-runtime', installed: runtime.installed, result: { queued: d.queued, notInstalled: d.notInstalled, reason: d.reason ?? '' } });
              return;
            }
            setPhase({ kind: 'done', queued: d.queued });
            onInstalledRef.current(d.queued);
          },
          error: (e) => {
            ended = true;
            setPhase({ kind: 'failed', message: e.message, refused: false });
          },
        },
        { closeOn: ['done', 'error'] },
      );
      try {
        await stream.done;
        if (!ended && !stopped) setPhase({ kind: 'failed', message: 'The install stream ended before it finished. The downloads go on; try again to follow them.', refused: false });
      } catch (err) {
        // refusals before the stream (offline mode, not enough disk) are plain API errors
        if (!stopped) setPhase({ kind: 'failed', message: errorMessage(err), refused: err instanceof ApiError && err.status >= 400 });
      }
    })();
    return () => {
      stopped = true;
      controller.abort();
      stream?.close();
    };
  }, [attempt, extrasKey, resumedDone]);

  const retry = () => setAttempt((n) => n + 1);
  const rows = jobs ?? [];
  const doneCount = rows.filter((j) => progress[j.id]?.state === 'completed').length;

  return (
    <>
      <h1 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
        {phase.kind === 'done' ? 'Essentials installed' : phase.kind === 'no-runtime' ? 'Models need Ollama' : 'Installing'}
      </h1>

      {phase.kind === 'checking' ? (
        <div className="runtime__row" role="status">
          <Spinner size={24} />
          <span>Checking the model runtime…</span>
        </div>
      ) : null}

      {phase.kind === 'no-runtime' ? (
        <div data-testid="install-no-runtime">
          <p>
            The essentials are AI models, and Hearth installs them into Ollama, the model runtime.{' '}
            {phase.installed ? 'Ollama is installed but not running: start it, then check again.' : 'Ollama was not found on this computer: install it from ollama.com, start it, then check again.'}
          </p>
          {phase.result === null ? (
            <div className="runtime__row" role="status">
              <Spinner size={24} />
              <span>Installing what needs no model…</span>
            </div>
          ) : (
            <>
              <p role="status" data-testid="install-partial-queued">
                {phase.result.queued === 0
                  ? 'Nothing else you picked needed installing now.'
                  : `${phase.result.queued === 1 ? 'One download' : `${phase.result.queued} downloads`} for the extras that need no model ${phase.result.queued === 1 ? 'continues' : 'continue'} in the background; follow them under Downloads.`}
              </p>
              <div className="banner banner--warn" data-testid="install-not-installed">
                <Icon name="warn" size={22} />
                <span>
                  Not installed: {phase.result.notInstalled.join(', ')}. {phase.result.reason}
                </span>
              </div>
              <p className="muted">Or finish setting up now and install the essentials later from Features; chat waits until then. The admins also get a notification about this.</p>
            </>
          )}
          <div className="actions">
            <button type="button" className="btn btn--secondary" onClick={retry}>
              <Icon name="refresh" size={20} />
              Check again
            </button>
            <button type="button" className="btn btn--primary btn--wide" onClick={onFinish} disabled={phase.result === null}>
              Continue without the models
            </button>
          </div>
        </div>
      ) : null}

      {phase.kind === 'installing' || phase.kind === 'failed' || (phase.kind === 'done' && jobs) ? (
        <>
          {phase.kind === 'installing' ? (
            <p className="muted" aria-live="polite" data-testid="install-summary">
              {jobs === null
                ? 'Starting…'
                : rows.length === 0
                  ? 'Everything is already here.'
                  : `${essentials.map((e) => e.name).join(', ')}: ${doneCount} of ${rows.length} downloads done. You can close this page; the downloads go on.`}
            </p>
          ) : null}
          {rows.length ? (
            <ul className="install-list" aria-label="Downloads" data-testid="install-jobs">
              {rows.map((j) => {
                const p = progress[j.id];
                const state = p?.state ?? 'pending';
                return (
                  <li key={j.id} className={`install-job install-job--${state}`}>
                    <div className="install-job__head">
                      <span className="install-job__label">{j.label}</span>
                      <span className={`install-job__state install-job__state--${state}`}>
                        {state === 'completed' ? <Icon name="check" size={18} /> : state === 'failed' ? <Icon name="error" size={18} /> : null}
                        {JOB_STATE_TEXT[state]}
                      </span>
                    </div>
                    {state === 'pending' && !p?.bytesDone ? null : state !== 'failed' && state !== 'cancelled' ? (
                      <JobProgress
                        label={`${j.label} progress`}
                        figures={state === 'completed' && p?.bytesTotal ? { ...p, bytesDone: p.bytesTotal } : (p ?? { bytesDone: 0, bytesTotal: null, speedBps: 0, etaSeconds: null })}
                        live={state === 'running'}
                      />
                    ) : p?.error ? (
                      <p className="job__error">{p.error}</p>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          ) : null}
        </>
      ) : null}

      {phase.kind === 'failed' ? (
        <div className="banner banner--error install-error" role="alert" data-testid="install-error">
          <Icon name="error" size={22} />
          <span>{phase.message}</span>
        </div>
      ) : null}
      {phase.kind === 'failed' ? (
        <>
          <p className="muted">You can also finish setting up now and install the essentials later from Features.</p>
          <div className="actions">
            {phase.refused ? (
              <button type="button" className="btn btn--secondary" onClick={onBack}>
                Back to the plan
              </button>
            ) : null}
            <button type="button" className="btn btn--secondary" onClick={onFinish}>
              Skip for now
            </button>
            <button type="button" className="btn btn--primary btn--wide" onClick={retry}>
              <Icon name="refresh" size={20} />
              Try again
            </button>
          </div>
        </>
      ) : null}

      {phase.kind === 'done' ? (
        <div data-testid="install-done">
          <p className="install-done" role="status">
            <span className="status-icon status-icon--ok">
              <Icon name="check" size={22} />
            </span>
            <span>Chat, search memory and the router are ready on this computer.</span>
          </p>
          {phase.queued > 0 ? (
            <p className="muted">
              {phase.queued === 1 ? 'One more download continues' : `${phase.queued} more downloads continue`} in the background for your extras. Follow them under
              Downloads once you open Hearth.
            </p>
          ) : null}
          <div className="actions">
            <button type="button" className="btn btn--secondary" onClick={onBack}>
              Back
            </button>
            <button type="button" className="btn btn--primary btn--wide" onClick={onFinish}>
              Continue
            </button>
          </div>
        </div>
      ) : null}

      {phase.kind === 'installing' || phase.kind === 'checking' ? (
        <div className="actions">
          <button type="button" className="btn btn--secondary" onClick={onBack}>
            Back
          </button>
        </div>
      ) : null}
    </>
  );
}
