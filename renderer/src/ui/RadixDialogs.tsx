// The Radix side of Dialog and Sheet (./Dialog.tsx, ./Sheet.tsx document them): its own chunk,
// fetched the first time a dialog or sheet opens, so no page's first screen carries
// @radix-ui/react-dialog and its scroll lock.
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactElement, ReactNode } from 'react';
import type { DialogProps, SheetProps } from './dialog-props';
import { Icon } from './icons';
import { useReturnFocus } from './useReturnFocus';

/** The title with its Close button, and the line under it: the same in a dialog and a sheet. */
function PanelHeader({ title, description }: { title: string; description?: ReactNode }): ReactElement {
  return (
    <>
      <div className="dialog__header">
        <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
        <RadixDialog.Close className="btn btn--icon btn--ghost" aria-label="Close">
          <Icon name="close" />
        </RadixDialog.Close>
      </div>
      {description ? <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description> : null}
    </>
  );
}

export function DialogPanel({ open, title, onClose, children, description, role = 'dialog', testId }: DialogProps): ReactElement {
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
            <PanelHeader title={title} description={description} />
            {children}
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export function SheetPanel({ open, onClose, title, description, side = 'right', children, footer, testId }: SheetProps): ReactElement {
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`sheet sheet--${side}`}
          data-testid={testId}
          {...returnFocus}
        >
          <PanelHeader title={title} description={description} />
          <div className="sheet__body">{children}</div>
          {footer ? <div className="sheet__footer">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
