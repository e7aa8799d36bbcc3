// Sheet — a panel that slides in from the side (wide screens) or up from the bottom (phones), on
// @radix-ui/react-dialog: focus trap, Escape and a tap outside close it, focus returns to the opener.
//   <Sheet open={x} onClose={close} title="Filters" side="right">…</Sheet>
// `side` picks the edge on wide screens ('right' by default, 'left' for navigation); under 600 px
// every sheet is a bottom sheet. The title is shown (and names the dialog); `description` is a line
// under it.
import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type ReactElement, type ReactNode } from 'react';
import { Icon } from './icons';

export interface SheetProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  side?: 'left' | 'right' | 'bottom';
  children: ReactNode;
  testId?: string;
}

export function Sheet({ open, onClose, title, description, side = 'right', children, testId }: SheetProps): ReactElement {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog-overlay" />
        <RadixDialog.Content
          className={`sheet sheet--${side}`}
          data-testid={testId}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
            opener.current = null;
          }}
        >
          <div className="dialog__header">
            <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="btn btn--icon btn--ghost" aria-label="Close">
              <Icon name="close" />
            </RadixDialog.Close>
          </div>
          {description ? <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description> : null}
          <div className="sheet__body">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
