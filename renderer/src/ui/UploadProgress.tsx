// UploadProgress — how much of a file has gone up: a bar (role progressbar, named by `label`) and,
// when given, a line under it (how many bytes of how many). `fraction` is 0..1.
//   <UploadProgress label="Photo upload" fraction={progress} />
// Styled by its own CSS, imported here (the bar itself is the app's `.progress`).
import type { ReactElement, ReactNode } from 'react';
import './UploadProgress.css';

export interface UploadProgressProps {
  /** The bar's accessible name ("Photo upload", "Uploading holiday.mp4"). */
  label: string;
  /** How much has gone up, 0..1. */
  fraction: number;
  /** A line under the bar. */
  detail?: ReactNode;
}

export function UploadProgress({ label, fraction, detail }: UploadProgressProps): ReactElement {
  const pct = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  return (
    <div className="upload-progress">
      <div className="progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
        <div className="progress__bar" style={{ width: `${pct}%` }} />
      </div>
      {detail ? <span className="muted">{detail}</span> : null}
    </div>
  );
}
