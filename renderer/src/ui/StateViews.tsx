// The three non-happy states every data view has: loading, empty and error (with a retry).
//   <LoadingState label="Loading members…" />
//   <EmptyState icon="bookmark" title="Nothing saved yet" action={<button…>Add a link</button>}>Save a page…</EmptyState>
//   <ErrorState title="Members did not load" error={err} onRetry={reload} />
// EmptyState says what would be here and the one thing to do about it (`action`); its optional
// icon is decorative.
import type { ReactElement, ReactNode } from 'react';
import { errorMessage } from '../api/client';
import { Icon, Spinner, type IconName } from './icons';

export function LoadingState({ label = 'Loading…' }: { label?: string }): ReactElement {
  return (
    <div className="state state--loading" role="status" aria-live="polite">
      <Spinner size={28} />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children, action, icon }: { title: string; children?: ReactNode; action?: ReactNode; icon?: IconName }): ReactElement {
  return (
    <div className="state state--empty">
      {icon ? <Icon name={icon} size={32} className="state__icon" /> : null}
      <p className="state__title">{title}</p>
      {children ? <p className="state__body">{children}</p> : null}
      {action}
    </div>
  );
}

export function ErrorState({ error, title = 'That did not load', onRetry }: { error: unknown; title?: string; onRetry?: () => void }): ReactElement {
  return (
    <div className="state state--error" role="alert">
      <Icon name="error" size={28} />
      <p className="state__title">{title}</p>
      <p className="state__body">{errorMessage(error)}</p>
      {onRetry ? (
        <button type="button" className="btn btn--secondary" onClick={onRetry}>
          <Icon name="refresh" size={20} />
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** An inline error line for forms; always present so screen readers hear new messages. */
export function FormError({ message, id }: { message: string | null | undefined; id?: string }): ReactElement {
  return (
    <p id={id} className="form-error" role="alert" aria-live="assertive">
      {message ?? ''}
    </p>
  );
}
