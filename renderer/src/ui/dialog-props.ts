// The props of Dialog and Sheet, apart from both: the lazily loaded Radix panels (RadixDialogs.tsx)
// take the same props, and importing them from Dialog.tsx or Sheet.tsx would close a cycle.
import type { ReactNode } from 'react';

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
