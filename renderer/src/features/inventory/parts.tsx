// Pieces the inventory screens share: a file button (a styled label over a real, visually hidden
// file input, so keyboards, screen readers and tests use the input), the warranty and lookup badges,
// and one device as a grid card or list row.
import { useId, useRef, useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon, Spinner, type IconName } from '../../ui/icons';
import { CATEGORY_ONE, deviceHref, deviceSubtitle, lookupBadge, warrantyWords, type DeviceSummary } from './types';

export interface FileButtonProps {
  label: string;
  accept: string;
  /** "environment" opens the phone's back camera. */
  capture?: 'environment' | 'user';
  icon?: IconName;
  tone?: 'primary' | 'secondary' | 'ghost';
  disabled?: boolean;
  onFile: (file: File) => void;
  testId?: string;
  compact?: boolean;
}

export function FileButton({ label, accept, capture, icon = 'upload', tone = 'secondary', disabled, onFile, testId, compact }: FileButtonProps): ReactElement {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  return (
    <span className="inv-file-button">
      <input
        ref={input}
        id={id}
        type="file"
        className="file-picker__input"
        accept={accept}
        capture={capture}
        disabled={disabled}
        data-testid={testId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          // cleared, so the same photo can be chosen again after a cancel
          if (input.current) input.current.value = '';
          if (file) onFile(file);
        }}
      />
      <label htmlFor={id} className={`btn btn--${tone}${compact ? ' btn--compact' : ''} inv-file-button__label`} aria-disabled={disabled || undefined}>
        <Icon name={icon} size={20} />
        {label}
      </label>
    </span>
  );
}

export function WarrantyBadge({ device }: { device: Pick<DeviceSummary, 'warrantyExpires' | 'warrantyStatus'> }): ReactElement | null {
  const w = warrantyWords(device);
  if (!w.badge) return null;
  return (
    <span className={`badge badge--${w.tone === 'error' ? 'error' : 'warn'} inv-badge`} data-testid="warranty-badge">
      {w.badge}
    </span>
  );
}

export function LookupBadge({ device }: { device: Pick<DeviceSummary, 'lookupStatus' | 'hasManual'> }): ReactElement | null {
  const text = lookupBadge(device);
  if (!text) return null;
  const pending = device.lookupStatus === 'pending';
  return (
    <span className={`badge ${pending ? 'badge--info' : 'badge--warn'} inv-badge`} data-testid="lookup-badge" data-state={device.lookupStatus}>
      {pending ? <Spinner size={12} /> : <Icon name="warn" size={12} />}
      {text}
    </span>
  );
}

/** The main photo's thumbnail, or the category's mark when there is none (or it does not load). */
export function DevicePhoto({ device, size }: { device: Pick<DeviceSummary, 'photoUrl' | 'name'>; size?: 'card' | 'row' }): ReactElement {
  const [failed, setFailed] = useState<string | null>(null);
  const src = device.photoUrl;
  if (!src || failed === src) {
    return (
      <span className={`inv-photo inv-photo--none inv-photo--${size ?? 'card'}`} aria-hidden="true">
        <Icon name="archive" size={size === 'row' ? 22 : 36} />
      </span>
    );
  }
  return <img className={`inv-photo inv-photo--${size ?? 'card'}`} src={src} alt="" loading="lazy" onError={() => setFailed(src)} />;
}

export function DeviceCard({ device, view }: { device: DeviceSummary; view: 'grid' | 'list' }): ReactElement {
  const sub = deviceSubtitle(device);
  return (
    <li className={`inv-card inv-card--${view}`} data-testid="device-card" data-device-id={device.id}>
      <Link to={deviceHref(device.id)} className="inv-card__link">
        <DevicePhoto device={device} size={view === 'grid' ? 'card' : 'row'} />
        <span className="inv-card__body">
          <span className="inv-card__name">{device.name}</span>
          {sub ? <span className="inv-card__sub">{sub}</span> : null}
          <span className="inv-card__meta">{[CATEGORY_ONE[device.category], device.location].filter(Boolean).join(' · ')}</span>
          <span className="inv-card__badges">
            <LookupBadge device={device} />
            <WarrantyBadge device={device} />
          </span>
        </span>
      </Link>
    </li>
  );
}
