// A labelled text input with an optional hint, a warning (said, not refused: a weak PIN) and an
// error line, each tied to it for screen readers.
import { useId, type InputHTMLAttributes, type ReactElement, type Ref } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: string;
  error?: string | null;
  /** Something to know before saving that does not stop it (shown under the input, read with it). */
  warning?: string | null;
  inputRef?: Ref<HTMLInputElement>;
}

export function TextField({ label, hint, error, warning, inputRef, className, ...input }: TextFieldProps): ReactElement {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = `${id}-error`;
  const warningId = `${id}-warning`;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      ) : null}
      <input
        id={id}
        ref={inputRef}
        className="input"
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, warning ? warningId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      <span id={warningId} className="field__warning" aria-live="polite">
        {warning ?? null}
      </span>
      {error ? (
        <span id={errorId} className="field__error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
