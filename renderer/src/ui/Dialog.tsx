// Dialog — a modal dialog on @radix-ui/react-dialog.
//   <Dialog open={x} title="Add a household member" description="…" onClose={close}>…</Dialog>
// Radix brings the focus trap, Escape, a tap outside to close, aria-hidden on the rest of the page
// and scroll locking; focus returns to whatever had it when the dialog opened (these dialogs are
// opened from state, without a Radix trigger). role="alertdialog" for a confirmation (ConfirmDialog).
// On phones (< 600 px) it is a bottom sheet (CSS in components.css). The Radix part (RadixDialogs.tsx)
// is fetched the first time a dialog opens, so a page's first screen does not carry it.
import { lazy, Suspense, type ReactElement } from 'react';
import type { DialogProps } from './dialog-props';
import { useOpenedOnce } from './useOpenedOnce';

const DialogPanel = lazy(() => import('./RadixDialogs').then((m) => ({ default: m.DialogPanel })));

export function Dialog(props: DialogProps): ReactElement | null {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <DialogPanel {...props} />
    </Suspense>
  );
}
