// Sheet — a panel that slides in from the side (wide screens) or up from the bottom (phones), on
// @radix-ui/react-dialog: focus trap, Escape and a tap outside close it, focus returns to the opener.
//   <Sheet open={x} onClose={close} title="Filters" side="right">…</Sheet>
// `side` picks the edge on wide screens ('right' by default, 'left' for navigation); under 600 px
// every sheet is a bottom sheet. The Radix part (RadixDialogs.tsx) is fetched the first time a sheet
// opens. The title is shown (and names the dialog); `description` is a line
// under it; `footer` is a row of buttons kept in sight at the bottom (e.g. "Show results").
import { lazy, Suspense, type ReactElement } from 'react';
import type { SheetProps } from './dialog-props';
import { useOpenedOnce } from './useOpenedOnce';

const SheetPanel = lazy(() => import('./RadixDialogs').then((m) => ({ default: m.SheetPanel })));

export function Sheet(props: SheetProps): ReactElement | null {
  if (!useOpenedOnce(props.open)) return null;
  return (
    <Suspense fallback={null}>
      <SheetPanel {...props} />
    </Suspense>
  );
}
