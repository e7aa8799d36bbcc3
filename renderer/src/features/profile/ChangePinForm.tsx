// "Change your PIN" on /profile: the current PIN, the new one twice. POST /api/auth/pin checks the
// current PIN as a sign-in would (a wrong one counts toward this device's lock, and the server's
// sentence says how many tries are left); a weak new PIN is said under the field before saving and
// is still accepted. The PINs are plain state, never a draft, and are cleared once saved.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactElement } from 'react';
import { api, ApiError, errorMessage } from '../../api/client';
import type { ChangePinResponse } from '../../api/types';
import { Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { digitsOnly, isWeakPin, PIN_MAX_DIGITS, pinProblem, WEAK_PIN_WARNING } from '../auth';

interface Errors {
  current?: string | null;
  next?: string | null;
  confirm?: string | null;
  form?: string | null;
}

export function ChangePinForm(): ReactElement {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [done, setDone] = useState<string | null>(null);
  const change = useMutation({ mutationFn: (body: { currentPin: string; newPin: string }) => api.post<ChangePinResponse>('/api/auth/pin', body) });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    const found: Errors = {
      current: current ? null : 'Type your current PIN.',
      next: pinProblem(next),
      confirm: !pinProblem(next) && confirm !== next ? 'The two PINs do not match.' : null,
    };
    if (!found.next && next === current) found.next = 'That is your current PIN. Choose a different one.';
    setErrors(found);
    if (found.current || found.next || found.confirm) return;
    try {
      const r = await change.mutateAsync({ currentPin: current, newPin: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(
        r.weakPin
          ? 'Your PIN is changed. It is easy to guess, so consider a less obvious one. You are signed out on your other devices.'
          : 'Your PIN is changed. You are signed out on your other devices.',
      );
    } catch (err) {
      const wrong = err instanceof ApiError && err.code === 'invalid_pin';
      const fields = err instanceof ApiError ? err.fieldIssues : {};
      setErrors({ current: wrong ? err.message : (fields.currentPin ?? null), next: fields.newPin ?? null, form: wrong ? null : errorMessage(err) });
    }
  };

  const pinField = { type: 'password', inputMode: 'numeric', pattern: '[0-9]*', maxLength: PIN_MAX_DIGITS } as const;
  return (
    <section className="card profile__pin" aria-labelledby="profile-pin-title">
      <h2 id="profile-pin-title" className="profile__label">
        Change your PIN
      </h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <TextField {...pinField} label="Current PIN" autoComplete="current-password" value={current} onChange={(e) => setCurrent(digitsOnly(e.target.value))} error={errors.current} />
        <TextField
          {...pinField}
          label="New PIN"
          hint="4 to 8 digits. Changing it signs you out on your other devices."
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(digitsOnly(e.target.value))}
          warning={isWeakPin(next) ? WEAK_PIN_WARNING : null}
          error={errors.next}
        />
        <TextField {...pinField} label="Confirm new PIN" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(digitsOnly(e.target.value))} error={errors.confirm} />
        <FormError message={errors.form} />
        <p className="profile__done" role="status">
          {done ?? ''}
        </p>
        <div className="profile__actions">
          <button type="submit" className="btn btn--primary" disabled={change.isPending}>
            {change.isPending ? <Spinner size={20} /> : null}
            Change PIN
          </button>
        </div>
      </form>
    </section>
  );
}
