// "Are you sure?" for a destructive action: a title naming what goes, a line on what it means, a
// safe button and a danger button. The action runs here with a spinner; its error stays in the
// dialog (the caller closes it on success). Closing is refused while the action runs.
import { useState, type ReactElement, type ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { Dialog } from './Dialog';
import { Icon, Spinner } from './icons';
import { FormError } from './StateViews';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  testId?: string;
  /** The danger button, e.g. "Delete" or "Remove". */
  confirmLabel: string;
  /** The safe button. */
  cancelLabel?: string;
  /** Runs the action; a thrown error is shown in the dialog. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

export function ConfirmDialog({ open, title, description, testId, confirmLabel, cancelLabel = 'Keep it', onConfirm, onClose }: ConfirmDialogProps): ReactElement {
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
      <FormError message={error} />
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={close} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" className="btn btn--danger" onClick={() => void confirm()} disabled={busy}>
          {busy ? <Spinner size={20} /> : <Icon name="trash" size={20} />}
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
