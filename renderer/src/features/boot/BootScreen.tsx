// Follows GET /api/system/boot while the server starts: one row per step with its status and
// detail, a progress bar for any repair (a model download, say), then hands over on `done`.
// Past events are replayed by the server, so opening this late still shows the whole story.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { openEventStream } from '../../api/sse';
import type { BootRepairEvent, BootStatus, BootStepEvent, BootEvents } from '../../api/types';
import { Icon, Spinner } from '../../ui/icons';
import { usePageTitle } from '../../ui/usePageTitle';
import { formatBytes, formatDuration } from '../../ui/format';

const STATUS_TEXT: Record<BootStatus, string> = {
  running: 'Checking',
  ok: 'Ready',
  warn: 'Needs attention',
  error: 'Failed',
};

/** How long the finished list stays on screen before the app opens. */
const DONE_PAUSE_MS = 600;

export function BootScreen({ onDone }: { onDone: () => void }): ReactElement {
  usePageTitle('Starting');
  const [steps, setSteps] = useState<BootStepEvent[]>([]);
  const [repairs, setRepairs] = useState<Record<string, BootRepairEvent>>({});
  const [done, setDone] = useState(false);
  const [connection, setConnection] = useState<'connecting' | 'open' | 'lost'>('connecting');
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stream = openEventStream<BootEvents>(
      '/api/system/boot',
      {
        step: (s) =>
          setSteps((prev) => {
            const i = prev.findIndex((p) => p.key === s.key);
            if (i === -1) return [...prev, s];
            const next = prev.slice();
            next[i] = s;
            return next;
          }),
        repair: (r) => setRepairs((prev) => ({ ...prev, [r.key]: r })),
        done: () => {
          setDone(true);
          timer = setTimeout(() => onDoneRef.current(), DONE_PAUSE_MS);
        },
      },
      {
        closeOn: ['done'],
        onOpen: () => setConnection('open'),
        onDisconnect: () => setConnection('lost'),
      },
    );
    return () => {
      stream.close();
      if (timer) clearTimeout(timer);
    };
  }, []);

  const finished = steps.filter((s) => s.status !== 'running').length;

  return (
    <div className="center-screen">
      <section className="card boot" aria-labelledby="boot-title" data-testid="boot-screen">
        <div className="boot__head">
          <Icon name="flame" size={40} className="brand__mark" />
          <div>
            <h1 id="boot-title" className="boot__title">
              {done ? 'Hearth is ready' : 'Hearth is starting'}
            </h1>
            <p className="muted" aria-live="polite">
              {done ? 'Opening…' : steps.length ? `${finished} of ${steps.length} checks done` : 'Connecting to the server…'}
            </p>
          </div>
        </div>
        {connection === 'lost' && !done ? (
          <p className="banner banner--warn" role="status">
            Lost touch with the server. Trying again…
          </p>
        ) : null}
        <ol className="boot__steps" aria-label="Start-up checks">
          {steps.map((s) => (
            <li key={s.key} className={`boot-step boot-step--${s.status}`}>
              <StatusIcon status={s.status} />
              <div className="boot-step__text">
                <span className="boot-step__label">
                  {s.label}
                  <span className="visually-hidden">: {STATUS_TEXT[s.status]}</span>
                </span>
                {s.detail ? <span className="boot-step__detail">{s.detail}</span> : null}
                {repairs[s.key] && s.status === 'running' ? <RepairProgress repair={repairs[s.key]!} label={s.label} /> : null}
              </div>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

function StatusIcon({ status }: { status: BootStatus }): ReactElement {
  return (
    <span className={`status-icon status-icon--${status}`} title={STATUS_TEXT[status]}>
      {status === 'running' ? <Spinner size={22} /> : <Icon name={status === 'ok' ? 'check' : status === 'warn' ? 'warn' : 'error'} size={22} />}
    </span>
  );
}

function RepairProgress({ repair, label }: { repair: BootRepairEvent; label: string }): ReactElement {
  const pct = repair.total > 0 ? Math.min(100, Math.round((repair.completed / repair.total) * 100)) : 0;
  const parts = [`${formatBytes(repair.completed)} of ${formatBytes(repair.total)}`];
  if (repair.speedBps > 0) parts.push(`${formatBytes(repair.speedBps)}/s`);
  if (repair.etaSeconds !== null && repair.etaSeconds > 0) parts.push(`about ${formatDuration(repair.etaSeconds)} left`);
  return (
    <div className="repair">
      <div
        className="progress"
        role="progressbar"
        aria-label={`${label} repair`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${pct}%, ${parts.join(', ')}`}
      >
        <div className="progress__bar" style={{ width: `${pct}%` }} />
      </div>
      <span className="repair__text">
        {pct}% · {parts.join(' · ')}
      </span>
    </div>
  );
}
