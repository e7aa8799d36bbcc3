// What a toast is, apart from Toast.tsx and the lazily loaded ToastList.tsx that both use it
// (importing it from either would close a cycle).
export type ToastTone = 'info' | 'error';
export interface ToastEntry {
  id: number;
  message: string;
  tone: ToastTone;
}
export interface ToastListProps {
  toasts: readonly ToastEntry[];
  onDismiss: (id: number) => void;
}
