// FilePicker — a labelled file input that looks like the app's buttons instead of the browser's raw
// "Choose File": the real <input type="file"> stays in the page (keyboard, screen readers and tests
// use it; it is visually hidden), its <label> is the styled button, and the chosen file's name (or
// "No file chosen") shows beside it.
//   <FilePicker label="Choose a bookmarks file" accept=".html,.json" onFile={(f) => setFile(f)} />
// `hint` is a line under it (what kinds of file), `error` a sentence at the field. `showChosen`
// false is for a picker that acts at once (Chat's "Add a picture": the picture shows as an
// attachment), where a file-name line ("No file chosen") would only be noise.
import { useId, useState, type ReactElement } from 'react';
import { Icon } from './icons';

export interface FilePickerProps {
  label: string;
  onFile: (file: File | null) => void;
  accept?: string;
  hint?: string;
  error?: string | null;
  disabled?: boolean;
  testId?: string;
  /** Show the chosen file's name (or "No file chosen") beside the button; default true. */
  showChosen?: boolean;
}

export function FilePicker({ label, onFile, accept, hint, error, disabled, testId, showChosen = true }: FilePickerProps): ReactElement {
  const id = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="field file-picker">
      <input
        id={id}
        type="file"
        className="file-picker__input"
        accept={accept}
        disabled={disabled}
        data-testid={testId}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          const file = e.target.files?.[0] ?? null;
          setChosen(file?.name ?? null);
          onFile(file);
        }}
      />
      <span className="file-picker__row">
        <label htmlFor={id} className="btn btn--secondary file-picker__button">
          <Icon name="upload" size={20} />
          {label}
        </label>
        {showChosen ? (
          <span className="file-picker__name" aria-live="polite">
            {chosen ?? 'No file chosen'}
          </span>
        ) : null}
      </span>
      {hint ? (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={errorId} className="field__error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
