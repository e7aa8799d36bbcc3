// Wizard step 2: the admin's name and PIN (typed twice). POST /api/setup/admin signs them in.
import { useState, type FormEvent, type ReactElement, type Ref } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { useSession } from '../../app/session';
import { Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useCreateAdmin } from './queries';
import { digitsOnly, NAME_HINT, nameLengthProblem, nameProblem, isWeakPin, PIN_MAX_DIGITS, pinProblem, WEAK_PIN_WARNING } from '../auth';

interface Errors {
  name?: string | null;
  pin?: string | null;
  confirm?: string | null;
  form?: string | null;
}

export function CreateAdminStep({ headingRef, onBack, onCreated }: { headingRef: Ref<HTMLHeadingElement>; onBack: () => void; onCreated: () => void }): ReactElement {
  const { signIn, updateSetup } = useSession();
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const createAdmin = useCreateAdmin();
  // busy from the submit until the next step opens (a success leaves this step)
  const busy = createAdmin.isPending || createAdmin.isSuccess;
  const [adminExists, setAdminExists] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Errors = {
      name: nameProblem(name),
      pin: pinProblem(pin),
      confirm: !pinProblem(pin) && confirm !== pin ? 'The two PINs do not match.' : null,
    };
    setErrors(next);
    if (next.name || next.pin || next.confirm) return;
    try {
      const user = await createAdmin.mutateAsync({ name: name.trim(), pin });
      signIn(user);
      updateSetup({ needsAdmin: false });
      onCreated();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'admin_exists') setAdminExists(true);
      const fields = err instanceof ApiError ? err.fieldIssues : {};
      setErrors({ name: fields.name ?? null, pin: fields.pin ?? null, form: errorMessage(err) });
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <h1 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
        Create the admin profile
      </h1>
      <p className="muted">The admin adds the rest of the household and looks after Hearth. You sign in with this PIN on any device.</p>
      <TextField
        label="Your name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setErrors((was) => ({ ...was, name: nameLengthProblem(e.target.value) }));
        }}
        hint={NAME_HINT}
        autoComplete="name"
        autoCapitalize="words"
        error={errors.name}
        required
      />
      <TextField
        label="PIN"
        hint="4 to 8 digits"
        type="password"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="new-password"
        maxLength={PIN_MAX_DIGITS}
        value={pin}
        onChange={(e) => setPin(digitsOnly(e.target.value))}
        warning={isWeakPin(pin) ? WEAK_PIN_WARNING : null}
        error={errors.pin}
        required
      />
      <TextField
        label="Confirm PIN"
        type="password"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="new-password"
        maxLength={PIN_MAX_DIGITS}
        value={confirm}
        onChange={(e) => setConfirm(digitsOnly(e.target.value))}
        error={errors.confirm}
        required
      />
      <FormError message={errors.form} />
      {adminExists ? (
        <p>
          <button type="button" className="btn btn--secondary" onClick={() => updateSetup({ needsAdmin: false })}>
            Go to sign in
          </button>
        </p>
      ) : null}
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={onBack} disabled={busy}>
          Back
        </button>
        <button type="submit" className="btn btn--primary btn--wide" disabled={busy}>
          {busy ? <Spinner size={20} /> : null}
          Create admin
        </button>
      </div>
    </form>
  );
}
