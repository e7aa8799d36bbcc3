// Toast — short news after an action ("Sam was added."), on @radix-ui/react-toast: announced to
// screen readers (polite; 'error' toasts assertive), paused while hovered or focused, dismissed
// with a swipe, Escape or its Close button, gone by itself after a few seconds (errors stay until
// closed, so nobody misses one).
//   <ToastProvider> wraps the app once;  const toast = useToast();  toast('Sam was added.');
//   toast('Could not save.', { tone: 'error' });
// Toasts show at the bottom on phones (above the tab bar) and the bottom right on wide screens.
import * as RadixToast from '@radix-ui/react-toast';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Icon } from './icons';

export type ToastTone = 'info' | 'error';
interface ToastEntry {
  id: number;
  message: string;
  tone: ToastTone;
}
type ShowToast = (message: string, options?: { tone?: ToastTone }) => void;

const ToastContext = createContext<ShowToast | null>(null);

export function ToastProvider({ children }: { children: ReactNode }): ReactElement {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const next = useRef(1);
  const show = useCallback<ShowToast>((message, options) => {
    const entry = { id: next.current++, message, tone: options?.tone ?? 'info' };
    setToasts((list) => [...list.slice(-2), entry]);
  }, []);
  const drop = (id: number) => setToasts((list) => list.filter((t) => t.id !== id));
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      <RadixToast.Provider swipeDirection="down" label="Notice">
        {children}
        {toasts.map((t) => (
          <RadixToast.Root
            key={t.id}
            className={`toast toast--${t.tone}`}
            type={t.tone === 'error' ? 'foreground' : 'background'}
            duration={t.tone === 'error' ? Infinity : 5000}
            onOpenChange={(open) => (open ? undefined : drop(t.id))}
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
    </ToastContext.Provider>
  );
}

/** Shows a toast; needs a ToastProvider above (the app has one around everything). */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a ToastProvider');
  return show;
}
