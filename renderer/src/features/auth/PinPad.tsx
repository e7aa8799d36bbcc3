// A PIN pad for touch and keyboard. The digits live in one (visually hidden) numeric password
// input, so a phone can bring up its number keyboard and screen readers get a real text field;
// the dots, the 0-9 buttons, Backspace and OK are the visible face of it. Physical keys work
// wherever focus is on the page (digits, Backspace, Enter), not only in the input.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { Icon, Spinner } from '../../ui/icons';
import { digitsOnly, PIN_MAX_DIGITS, PIN_MIN_DIGITS } from './pin-rules';

export interface PinPadProps {
  /** Accessible name of the PIN field, e.g. "PIN for Alex". */
  label: string;
  /** Resolves when the attempt is over; the pad then clears itself. */
  onSubmit: (pin: string) => Promise<void>;
  /** Locked (e.g. during a lockout countdown). */
  disabled?: boolean;
  /** The last attempt's problem, read out when it changes. */
  error?: string | null;
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

/** Keyboard users get the field focused at once; touch users get the keypad without a pop-up keyboard. */
const prefersKeyboard = () => typeof window !== 'undefined' && window.matchMedia?.('(hover: hover) and (pointer: fine)').matches === true;

function isEditable(el: EventTarget | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  return el.isContentEditable || el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
}

export function PinPad({ label, onSubmit, disabled = false, error }: PinPadProps): ReactElement {
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState<string | null>(null);
  const [shake, setShake] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const errorId = useId();
  const locked = disabled || busy;

  // Latest values for the document-level key handler without re-binding it on every digit.
  const live = useRef({ pin, locked });
  live.current = { pin, locked };

  const append = useCallback((d: string) => {
    setHint(null);
    setPin((p) => (p.length >= PIN_MAX_DIGITS ? p : p + d));
  }, []);
  const backspace = useCallback(() => {
    setHint(null);
    setPin((p) => p.slice(0, -1));
  }, []);

  const submit = useCallback(async () => {
    const { pin: current, locked: isLocked } = live.current;
    if (isLocked) return;
    if (current.length < PIN_MIN_DIGITS) {
      setHint(`Enter at least ${PIN_MIN_DIGITS} digits.`);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(current);
    } finally {
      setBusy(false);
      setPin('');
      if (prefersKeyboard()) inputRef.current?.focus();
    }
  }, [onSubmit]);

  useEffect(() => {
    if (error) setShake((n) => n + 1);
  }, [error]);

  useEffect(() => {
    if (!disabled && prefersKeyboard()) inputRef.current?.focus();
  }, [disabled]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      // the hidden input types for itself; other fields on the page (none today) keep their keys
      if (e.target === inputRef.current || isEditable(e.target)) return;
      // keys in an open dialog are not meant for the pad
      if (document.querySelector('dialog[open]')) return;
      const inPad = e.target instanceof Node && formRef.current?.contains(e.target) === true;
      const onPage = e.target === document.body || e.target === document.documentElement;
      if (/^[0-9]$/.test(e.key)) {
        e.preventDefault();
        if (!live.current.locked) append(e.key);
      } else if (e.key === 'Backspace') {
        e.preventDefault();
        if (!live.current.locked) backspace();
      } else if (e.key === 'Enter' && (inPad || onPage)) {
        // also stops Enter from "pressing" a focused digit button; Enter on other controls
        // (such as "Choose someone else") keeps its usual meaning
        e.preventDefault();
        void submit();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [append, backspace, submit]);

  const handleSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit();
  };

  const slots = Math.max(PIN_MIN_DIGITS, pin.length);
  const message = error ?? hint;

  return (
    <form ref={formRef} className="pinpad" onSubmit={handleSubmit} noValidate data-testid="pin-pad">
      <div className="pin-display" onClick={() => inputRef.current?.focus()}>
        <input
          ref={inputRef}
          className="pin-input"
          type="password"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={PIN_MAX_DIGITS}
          aria-label={label}
          aria-describedby={message ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          value={pin}
          readOnly={locked}
          onChange={(e) => {
            setHint(null);
            setPin(digitsOnly(e.target.value));
          }}
        />
        <span key={shake} className={shake ? 'pin-dots is-shaking' : 'pin-dots'} aria-hidden="true">
          {Array.from({ length: slots }, (_, i) => (
            <span key={i} className={i < pin.length ? 'pin-dot is-filled' : 'pin-dot'} />
          ))}
        </span>
      </div>
      <p id={errorId} className="form-error pinpad__error" role="alert" aria-live="assertive">
        {message ?? ''}
      </p>
      <div className="keypad" role="group" aria-label="Keypad">
        {KEYS.map((k) => (
          <button key={k} type="button" className="key" onClick={() => append(k)} disabled={locked}>
            {k}
          </button>
        ))}
        <button type="button" className="key key--action" onClick={backspace} disabled={locked} aria-label="Delete last digit">
          <Icon name="backspace" size={28} />
        </button>
        <button type="button" className="key" onClick={() => append('0')} disabled={locked}>
          0
        </button>
        <button type="submit" className="key key--ok" disabled={locked}>
          {busy ? <Spinner size={24} label="Checking" /> : 'OK'}
        </button>
      </div>
    </form>
  );
}
