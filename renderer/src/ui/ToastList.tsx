// The toasts on screen, on @radix-ui/react-toast. Its own chunk: ToastProvider (Toast.tsx) loads it
// with the first toast, so the first screen does not download Radix's toast code.
import * as RadixToast from '@radix-ui/react-toast';
import type { ReactElement } from 'react';
import { Icon } from './icons';
import type { ToastListProps } from './toast-types';

export function ToastList({ toasts, onDismiss }: ToastListProps): ReactElement {
  return (
    <RadixToast.Provider swipeDirection="down" label="Notice">
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          className={`toast toast--${t.tone}`}
          type={t.tone === 'error' ? 'foreground' : 'background'}
          duration={t.tone === 'error' ? Infinity : 5000}
          onOpenChange={(open) => (open ? undefined : onDismiss(t.id))}
          data-testid="toast"
        >
          <RadixToast.Description className="toast__message">{t.message}</RadixToast.Description>
          <RadixToast.Close className="btn btn--icon btn--ghost toast__close" aria-label="Close">
            <Icon name="close" size={20} />
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="toast-viewport" />
    </RadixToast.Provider>
  );
}
