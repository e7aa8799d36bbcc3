// ConfirmDialog — "Are you sure?" for an action that cannot simply be undone, on Dialog (so on
// @radix-ui/react-dialog, role="alertdialog"): a title naming what goes, a line on what it means, a
// safe button and the action's button (danger by default).
//   <ConfirmDialog open={x} title="Remove Sam?" confirmLabel="Remove" onConfirm={remove} onClose={close} />
// The action runs here with a spinner; its error stays in the dialog (the caller closes it on
// success). Closing (Escape, a tap outside, Cancel) is refused while the action runs.
import { useState, type ReactElement, type ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { Dialog } from './Dialog';
import type { IconName } from './icons';
import { DialogActions } from './DialogActions';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  testId?: string;
  /** The action's button, e.g. "Delete" or "Remove". */
  confirmLabel: string;
  /** Its icon (default a bin; null for none). */
  confirmIcon?: IconName | null;
  /** 'primary' for an action that loses nothing for good (default 'danger'). */
  tone?: 'danger' | 'primary';
  /** The safe button. */
  cancelLabel?: string;
  /** Runs the action; a thrown error is shown in the dialog. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, description, testId, confirmLabel, confirmIcon = 'trash', tone = 'danger', cancelLabel = 'Keep it', onConfirm, onClose }: ConfirmDialogProps): ReactElement {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} role="alertdialog" title={title} onClose={close} testId={testId} description={description}>
      <DialogActions busy={busy} error={error} onCancel={close} cancelLabel={cancelLabel} label={confirmLabel} icon={confirmIcon} tone={tone} onConfirm={() => void confirm()} />
    </Dialog>
  );
}
