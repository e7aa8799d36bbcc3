// The Plex PIN flow, shown to a member linking their own account and to an admin connecting the
// household's server: the code shown big, the Plex page to approve it at (a link carrying the code,
// and for another device the short page, plex.tv/link, where the 4-character code is typed), a bar of the time left while Hearth waits, and what happened
// (approved, expired → try again). The parent decides what an approved PIN is for (`onApproved`).
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Icon, Spinner } from '../../ui/icons';
import { usePin, useStartPin } from './link-queries';
import './link-account.css';

export interface PinFlowProps {
  /** Called once, when the PIN is approved. */
  onApproved: (pinId: number) => void;
  /** What the start button says ("Link my Plex account", "Sign in with Plex"). */
  startLabel: string;
  /** Start at once (a "link again" that was already chosen). */
  autoStart?: boolean;
  onCancel?: () => void;
}

export function PinFlow({ onApproved, startLabel, autoStart = false, onCancel }: PinFlowProps): ReactElement {
  const start = useStartPin();
  const [pinId, setPinId] = useState<number | null>(null);
  const [startedAt, setStartedAt] = useState(0);
  const pin = usePin(pinId);
  const handed = useRef<number | null>(null);
  const now = useNow(pinId !== null);

  const begin = () => {
    handed.current = null;
    setPinId(null);
    start.mutate(undefined, {
      onSuccess: (p) => {
        setStartedAt(Date.now());
        setPinId(p.id);
      },
    });
  };
  const autoStarted = useRef(false);
  useEffect(() => {
    if (autoStart && !autoStarted.current) {
      autoStarted.current = true;
      begin();
    }
  }, [autoStart]);

  const view = pin.data ?? (start.data && start.data.id === pinId ? start.data : undefined);
  useEffect(() => {
    if (view?.status === 'approved' && handed.current !== view.id) {
      handed.current = view.id;
      onApproved(view.id);
    }
  }, [view, onApproved]);

  if (pinId === null || !view) {
    return (
      <div className="pin-flow">
        {start.error ? (
          <p className="banner banner--error" role="alert">
            <Icon name="warn" size={22} />
            <span>{errorMessage(start.error)}</span>
          </p>
        ) : null}
        <div className="actions">
          <button type="button" className="btn btn--primary" onClick={begin} disabled={start.isPending}>
            {start.isPending ? <Spinner size={20} /> : <Icon name="external" size={20} />}
            {startLabel}
          </button>
          {onCancel ? (
            <button type="button" className="btn btn--ghost" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </div>
    );
  }

  if (view.status === 'expired') {
    return (
      <div className="pin-flow" data-testid="pin-expired">
        <p className="banner banner--warn" role="status">
          <Icon name="warn" size={22} />
          <span>That code ran out before it was approved. Get a new one and try again.</span>
        </p>
        <button type="button" className="btn btn--primary" onClick={begin} disabled={start.isPending}>
          <Icon name="refresh" size={20} />
          Try again
        </button>
      </div>
    );
  }

  const expires = Date.parse(view.expiresAt);
  const total = Math.max(1, expires - startedAt);
  const left = Math.max(0, expires - now);
  const pct = Math.round((left / total) * 100);
  const minutes = Math.max(1, Math.ceil(left / 60_000));

  return (
    <div className="pin-flow" data-testid="pin-flow">
      <p className="pin-flow__lead">Open the Plex page, sign in, and approve this code:</p>
      <p className="pin-flow__code" data-testid="pin-code" aria-label={`Your code: ${view.code.split('').join(' ')}`}>
        {view.code}
      </p>
      <p>
        <a className="btn btn--primary" href={view.linkUrl} target="_blank" rel="noopener noreferrer">
          <Icon name="external" size={20} />
          Open the Plex page
        </a>
      </p>
      <p className="muted pin-flow__address" data-testid="pin-other-device">
        On another phone or computer? Go to{' '}
        <a className="pin-flow__url" href={view.codePageUrl} target="_blank" rel="noopener noreferrer" data-testid="pin-link-text">
          {view.codePage}
        </a>{' '}
        there, sign in and type the code <strong>{view.code}</strong>.
      </p>
      {view.status === 'approved' ? (
        <p className="banner banner--info" role="status">
          <Spinner size={20} />
          <span>Approved. Finishing…</span>
        </p>
      ) : (
        <div className="pin-flow__wait" role="status" aria-live="polite">
          <div className="progress" role="progressbar" aria-label="Time left for this code" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-valuetext={`About ${minutes} minute${minutes === 1 ? '' : 's'} left`}>
            <div className="progress__bar" style={{ width: `${pct}%` }} />
          </div>
          <span className="muted">
            <Spinner size={16} /> Waiting for you to approve it… about {minutes} minute{minutes === 1 ? '' : 's'} left.
          </span>
        </div>
      )}
      {pin.error ? (
        <p className="banner banner--warn" role="alert">
          <Icon name="warn" size={22} />
          <span>{errorMessage(pin.error)} Hearth keeps checking.</span>
        </p>
      ) : null}
      {onCancel ? (
        <button type="button" className="btn btn--ghost" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const t = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(t);
  }, [ticking]);
  return now;
}
