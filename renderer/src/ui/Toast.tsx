// Toast — short news after an action ("Sam was added."), on @radix-ui/react-toast: announced to
// screen readers (polite; 'error' toasts assertive), paused while hovered or focused, dismissed
// with a swipe, Escape or its Close button, gone by itself after a few seconds (errors stay until
// closed, so nobody misses one).
//   <ToastProvider> wraps the app once;  const toast = useToast();  toast('Sam was added.');
//   toast('Could not save.', { tone: 'error' });
// Toasts show at the bottom on phones (above the tab bar) and the bottom right on wide screens.
// The Radix part (ToastList.tsx) is its own chunk, loaded with the first toast (and tried again with
// the next one if it did not arrive).
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import type { ToastEntry, ToastListProps, ToastTone } from './toast-types';

type ShowToast = (message: string, options?: { tone?: ToastTone }) => void;

const ToastContext = createContext<ShowToast | null>(null);

export function ToastProvider({ children }: { children: ReactNode }): ReactElement {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  // once loaded the list stays mounted (Radix keeps its viewport and announcer)
  const [List, setList] = useState<ComponentType<ToastListProps> | null>(null);
  const loading = useRef(false);
  const next = useRef(1);
  const show = useCallback<ShowToast>((message, options) => {
    const entry: ToastEntry = { id: next.current++, message, tone: options?.tone ?? 'info' };
    if (!loading.current) {
      loading.current = true;
      import('./ToastList').then(
        (m) => setList(() => m.ToastList),
        () => {
          loading.current = false;
        },
      );
    }
    setToasts((list) => [...list.slice(-2), entry]);
  }, []);
  const drop = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {List ? <List toasts={toasts} onDismiss={drop} /> : null}
    </ToastContext.Provider>
  );
}

/** Shows a toast; needs a ToastProvider above (the app has one around everything). */
export function useToast(): ShowToast {
  const show = useContext(ToastContext);
  if (!show) throw new Error('useToast needs a ToastProvider');
  return show;
}
