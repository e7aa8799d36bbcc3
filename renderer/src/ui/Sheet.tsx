// Sheet — a panel that slides in from the side (wide screens) or up from the bottom (phones), on
// @radix-ui/react-dialog: focus trap, Escape and a tap outside close it, focus returns to the opener.
//   <Sheet open={x} onClose={close} title="Filters" side="right">…</Sheet>
// `side` picks the edge on wide screens ('right' by default, 'left' for navigation); under 600 px
// every sheet is a bottom sheet. The title is shown (and names the dialog); `description` is a line
// under it; `footer` is a row of buttons kept in sight at the bottom (e.g. "Show results").
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactElement, ReactNode } from 'react';
import { useReturnFocus } from './useReturnFocus';
import { Icon } from './icons';

export interface SheetProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  side?: 'left' | 'right' | 'bottom';
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
}

export function Sheet({ open, onClose, title, description, side = 'right', children, footer, testId }: SheetProps): ReactElement {
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
          <div className="dialog__header">
            <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="btn btn--icon btn--ghost" aria-label="Close">
              <Icon name="close" />
            </RadixDialog.Close>
          </div>
          {description ? <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description> : null}
          <div className="sheet__body">{children}</div>
          {footer ? <div className="sheet__footer">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
