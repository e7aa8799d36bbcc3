// One download's progress: a labelled progress bar with bytes, speed and time left in human units.
// Shared by the Downloads page and the setup wizard's install step.
import type { ReactElement } from 'react';
import { formatBytes, formatDuration } from '../../ui/format';
import type { JobState } from './types';

export interface ProgressFigures {
  bytesDone: number;
  bytesTotal: number | null;
  speedBps: number;
  etaSeconds: number | null;
}

export const JOB_STATE_TEXT: Record<JobState, string> = {
  pending: 'Waiting',
  running: 'Downloading',
  completed: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** 0–100, or null while the total is not known yet. */
export function percentOf(p: Pick<ProgressFigures, 'bytesDone' | 'bytesTotal'>): number | null {
  if (!p.bytesTotal || p.bytesTotal <= 0) return null;
  return Math.min(100, Math.max(0, Math.floor((p.bytesDone / p.bytesTotal) * 100)));
}

/** "1.20 GB of 4.70 GB", "12.0 MB/s", "about 5 min left" (only the parts that are known). */
export function progressParts(p: ProgressFigures, opts: { live?: boolean } = {}): string[] {
  const parts = [p.bytesTotal ? `${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}` : `${formatBytes(p.bytesDone)} so far`];
  if (opts.live !== false) {
    if (p.speedBps > 0) parts.push(`${formatBytes(p.speedBps)}/s`);
    // no line break inside "24 s"
    if (p.etaSeconds !== null && p.etaSeconds > 0) parts.push(`about ${formatDuration(p.etaSeconds).replace(/ /g, '\u00a0')} left`);
  }
  return parts;
}

export function JobProgress({ label, figures, live = true }: { label: string; figures: ProgressFigures; live?: boolean }): ReactElement {
  const pct = percentOf(figures);
  const parts = progressParts(figures, { live });
  return (
    <div className="job-progress">
      <div
        className={pct === null ? 'progress progress--unknown' : 'progress'}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct ?? undefined}
        aria-valuetext={pct === null ? parts.join(', ') : `${pct}%, ${parts.join(', ')}`}
      >
        <div className="progress__bar" style={{ width: `${pct ?? 0}%` }} />
      </div>
      <span className="job-progress__text">{[pct === null ? null : `${pct}%`, ...parts].filter(Boolean).join(' · ')}</span>
    </div>
  );
}
