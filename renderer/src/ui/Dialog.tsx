// A modal dialog on the native <dialog> element: focus moves into it and is trapped, Escape
// closes it, and focus returns to the opener afterwards. On phones it becomes a bottom sheet (CSS).
import { useEffect, useId, useRef, type ReactElement, type ReactNode } from 'react';
import { Icon } from './icons';

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** A short line under the title. */
  description?: ReactNode;
  role?: 'dialog' | 'alertdialog';
  testId?: string;
}

export function Dialog({ open, title, onClose, children, description, role = 'dialog', testId }: DialogProps): ReactElement | null {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descId = useId();

  useEffect(() => {
    const el = ref.current;
    if (!open || !el) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!el.open) el.showModal();
    return () => {
      if (el.open) el.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className="dialog"
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descId : undefined}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // a click on the backdrop (the dialog element itself, outside its content) closes it
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="dialog__content">
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          <button type="button" className="btn btn--icon btn--ghost" onClick={onClose} aria-label="Close">
            <Icon name="close" />
          </button>
        </div>
        {description ? (
          <p id={descId} className="dialog__description">
            {description}
          </p>
        ) : null}
        {children}
      </div>
    </dialog>
  );
}
