// SegmentedControl — a row of mutually exclusive buttons (aria-pressed) in one group with an
// accessible name, styled by its own CSS, imported here, so it looks the same on whichever page
// loads first (the class was once styled only by the Reader's and Inventory's page CSS).
//   <SegmentedControl label="Shape" value={shape} onChange={setShape}
//     options={[{ value: 'auto', label: 'Auto' }, { value: 'square', label: 'Square' }]} />
// `icons` tightens the buttons for icon-only options (give each an ariaLabel). Choosing the option
// already pressed does nothing.
import type { ReactElement, ReactNode } from 'react';
import './SegmentedControl.css';

export interface SegmentOption<T> {
  value: T;
  label: ReactNode;
  /** The button's accessible name when its label is an icon or says less than it should. */
  ariaLabel?: string;
  title?: string;
  disabled?: boolean;
  /** The id of a sentence saying why it is disabled. */
  describedBy?: string;
  testId?: string;
}

export interface SegmentedControlProps<T> {
  /** The group's accessible name. */
  label: string;
  options: readonly SegmentOption<T>[];
  value: T;
  onChange: (value: T) => void;
  icons?: boolean;
  /** Extra classes for the group (a page's layout of it). */
  className?: string;
}

export function SegmentedControl<T>({ label, options, value, onChange, icons, className }: SegmentedControlProps<T>): ReactElement {
  const classes = ['segmented', icons ? 'segmented--icons' : null, className ?? null].filter(Boolean).join(' ');
  return (
    <div className={classes} role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={String(o.value)}
          type="button"
          className="segmented__btn"
          aria-pressed={value === o.value}
          aria-label={o.ariaLabel}
          title={o.title}
          disabled={o.disabled}
          aria-describedby={o.describedBy}
          data-testid={o.testId}
          onClick={() => (value === o.value ? undefined : onChange(o.value))}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
