// The foot of a dialog or sheet: the error of its last attempt, a Cancel button and the action's
// button with a spinner while it runs. The action submits the form it sits in, unless onConfirm
// is given (a dialog without a form).
import type { ReactElement, ReactNode } from 'react';
import { Icon, Spinner, type IconName } from './icons';
import { FormError } from './StateViews';

export interface DialogActionsProps {
  busy: boolean;
  error: string | null | undefined;
  onCancel: () => void;
  cancelLabel?: string;
  /** The action's button text. */
  label: ReactNode;
  icon?: IconName | null;
  tone?: 'primary' | 'danger';
  /** Runs the action on click; without it the button submits the form. */
  onConfirm?: () => void;
}

export function DialogActions({ busy, error, onCancel, cancelLabel = 'Cancel', label, icon = null, tone = 'primary', onConfirm }: DialogActionsProps): ReactElement {
  return (
    <>
      <FormError message={error} />
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type={onConfirm ? 'button' : 'submit'} className={`btn btn--${tone}`} onClick={onConfirm} disabled={busy}>
          {busy ? <Spinner size={20} /> : icon ? <Icon name={icon} size={20} /> : null}
          {label}
        </button>
      </div>
    </>
  );
}
