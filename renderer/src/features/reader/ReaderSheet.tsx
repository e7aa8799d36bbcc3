// The Reader's own sheet, on Radix Dialog: a bottom sheet on phones, a panel from the side on wide
// screens; focus is trapped and returns to the opener, Escape and the backdrop close it. Kept in
// this folder until the shared `Sheet` (renderer/src/ui) lands, then swapped for it: same props.
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactElement, ReactNode } from 'react';
import { Icon } from '../../ui/icons';

export interface ReaderSheetProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** The row of buttons at the bottom (e.g. "Show results"). */
  footer?: ReactNode;
  testId?: string;
}

export function ReaderSheet({ open, title, onClose, children, footer, testId }: ReaderSheetProps): ReactElement {
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="reader-sheet__backdrop" />
        <RadixDialog.Content className="reader-sheet" data-testid={testId} aria-describedby={undefined}>
          <div className="reader-sheet__header">
            <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="btn btn--icon btn--ghost" aria-label="Close">
              <Icon name="close" />
            </RadixDialog.Close>
          </div>
          <div className="reader-sheet__body">{children}</div>
          {footer ? <div className="reader-sheet__footer">{footer}</div> : null}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
