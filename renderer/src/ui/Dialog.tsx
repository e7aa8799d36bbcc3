// Dialog — a modal dialog on @radix-ui/react-dialog.
//   <Dialog open={x} title="Add a household member" description="…" onClose={close}>…</Dialog>
// Radix brings the focus trap, Escape, a tap outside to close, aria-hidden on the rest of the page
// and scroll locking; focus returns to whatever had it when the dialog opened (these dialogs are
// opened from state, without a Radix trigger). role="alertdialog" for a confirmation (ConfirmDialog).
// On phones (< 600 px) it is a bottom sheet (CSS in components.css).
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactElement, ReactNode } from 'react';
import { useReturnFocus } from './useReturnFocus';
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

export function Dialog({ open, title, onClose, children, description, role = 'dialog', testId }: DialogProps): ReactElement {
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className="dialog"
          role={role}
          data-testid={testId}
          {...returnFocus}
        >
          <div className="dialog__content">
            <div className="dialog__header">
              <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
              <RadixDialog.Close className="btn btn--icon btn--ghost" aria-label="Close">
                <Icon name="close" />
              </RadixDialog.Close>
            </div>
            {description ? <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description> : null}
            {children}
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
