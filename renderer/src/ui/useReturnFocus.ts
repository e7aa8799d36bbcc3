// Focus goes back to the control that opened a Radix dialog or sheet when it closes, if that control
// is still on the page (Radix's own return targets the trigger, and Hearth's dialogs have none).
import { useRef } from 'react';

export function useReturnFocus(): { onOpenAutoFocus: () => void; onCloseAutoFocus: (e: Event) => void } {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (e) => {
      e.preventDefault();
      if (opener.current?.isConnected) opener.current.focus();
      opener.current = null;
    },
  };
}
