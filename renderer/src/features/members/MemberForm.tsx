// Add or edit one household member: name, PIN (required when adding; optional "new PIN" when
// editing) and role. Edits send only what changed. The name and role typed are kept as a draft
// (ui/useDraft: this tab, the signed-in admin's own) so they survive the session ending mid-form;
// the PIN never is: a PIN must not sit in sessionStorage, so it is plain state and is typed again.
import { useState, type FormEvent, type ReactElement } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import type { PublicUser, Role } from '../../api/types';
import { Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useAddMember, useUpdateMember } from './queries';
import { useUser } from '../../app/session';
import { clearDraft, useDraft } from '../../ui/useDraft';
import { digitsOnly, NAME_HINT, nameLengthProblem, nameProblem, isWeakPin, PIN_MAX_DIGITS, pinProblem, WEAK_PIN_WARNING } from '../auth';

interface Errors {
  name?: string | null;
  pin?: string | null;
  confirm?: string | null;
  role?: string | null;
  form?: string | null;
}

const ROLES: ReadonlyArray<{ value: Role; label: string; hint: string }> = [
  { value: 'member', label: 'Member', hint: 'Uses Hearth with their own profile.' },
  { value: 'admin', label: 'Admin', hint: 'Also manages members, apps and settings.' },
];

export function MemberForm({
  member,
  isSelf,
  onCancel,
  onSaved,
}: {
  /** null to add a new member */
  member: PublicUser | null;
  isSelf: boolean;
  onCancel: () => void;
  onSaved: (user: PublicUser) => void;
}): ReactElement {
  const adding = member === null;
  const me = useUser();
  const form = memberDraftForm(member);
  const [name, setName, clearName] = useDraft(me.id, `${form}.name`, member?.name ?? '');
  // never a draft: a PIN is not kept in sessionStorage
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [roleText, setRoleText, clearRole] = useDraft(me.id, `${form}.role`, member?.role ?? 'member');
  const role: Role = roleText === 'admin' ? 'admin' : 'member';
  const [errors, setErrors] = useState<Errors>({});
  const addMember = useAddMember();
  const updateMember = useUpdateMember();
  const busy = addMember.isPending || updateMember.isPending;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const wantsPin = adding || pin.length > 0 || confirm.length > 0;
    const next: Errors = {
      name: nameProblem(name),
      pin: wantsPin ? pinProblem(pin) : null,
      confirm: wantsPin && !pinProblem(pin) && confirm !== pin ? 'The two PINs do not match.' : null,
    };
    setErrors(next);
    if (next.name || next.pin || next.confirm) return;

    const trimmed = name.trim();
    const body: Record<string, string> = {};
    if (!adding) {
      if (trimmed !== member.name) body.name = trimmed;
      if (pin) body.pin = pin;
      if (role !== member.role) body.role = role;
      if (Object.keys(body).length === 0) {
        onCancel(); // nothing changed (the draft goes with the form)
        return;
      }
    }

    try {
      const user = adding
        ? await addMember.mutateAsync({ name: trimmed, pin, role })
        : await updateMember.mutateAsync({ id: member.id, body });
      clearName();
      clearRole();
      onSaved(user);
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldIssues : {};
      const taken = err instanceof ApiError && err.code === 'name_taken';
      setErrors({
        name: taken ? err.message : (fields.name ?? null),
        pin: fields.pin ?? null,
        role: fields.role ?? null,
        form: taken ? null : errorMessage(err),
      });
    }
  };

  return (
    <form className="member-form" onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label="Name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
          setErrors((was) => ({ ...was, name: nameLengthProblem(e.target.value) }));
        }}
        hint={NAME_HINT}
        autoComplete="off"
        autoCapitalize="words"
        error={errors.name}
        required
      />
      <TextField
        label={adding ? 'PIN' : 'New PIN'}
        hint={adding ? '4 to 8 digits' : isSelf ? 'Leave empty to keep your PIN.' : 'Leave empty to keep the current PIN. A new PIN signs them out on their other devices.'}
        type="password"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="new-password"
        maxLength={PIN_MAX_DIGITS}
        value={pin}
        onChange={(e) => setPin(digitsOnly(e.target.value))}
        warning={isWeakPin(pin) ? WEAK_PIN_WARNING : null}
        error={errors.pin}
        required={adding}
      />
      <TextField
        label={adding ? 'Confirm PIN' : 'Confirm new PIN'}
        type="password"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="new-password"
        maxLength={PIN_MAX_DIGITS}
        value={confirm}
        onChange={(e) => setConfirm(digitsOnly(e.target.value))}
        error={errors.confirm}
        required={adding}
      />
      <fieldset className="field role-field">
        <legend className="field__label">Role</legend>
        <div className="role-options">
          {ROLES.map((r) => (
            <label key={r.value} className={role === r.value ? 'role-option is-selected' : 'role-option'}>
              <input type="radio" name="role" value={r.value} checked={role === r.value} onChange={() => setRoleText(r.value)} />
              <span>
                <span className="role-option__label">{r.label}</span>
                <span className="role-option__hint">{r.hint}</span>
              </span>
            </label>
          ))}
        </div>
        {errors.role ? <span className="field__error">{errors.role}</span> : null}
      </fieldset>
      <FormError message={errors.form} />
      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? <Spinner size={20} /> : null}
          {adding ? 'Add member' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}

/** The draft's name for this form: one for adding, one per member edited. */
function memberDraftForm(member: PublicUser | null): string {
  return member ? `members.edit.${member.id}` : 'members.add';
}

/** Forgets what was typed into the form (Cancel, Escape, a tap outside: dismissing is a choice). */
export function forgetMemberDraft(userId: string, member: PublicUser | null): void {
  const form = memberDraftForm(member);
  clearDraft(userId, `${form}.name`);
  clearDraft(userId, `${form}.role`);
}
