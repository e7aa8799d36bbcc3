// The device's fields as one form, used three ways: the review after a label photo was read (filled
// from what Hearth read), Add by hand (empty) and Edit on the device page (filled from the device).
// Every field is editable; label specifications are key/value rows (draft.ts turns what is typed
// into the request body).
import { useId, useState, type FormEvent, type ReactElement, type ReactNode } from 'react';
import { Icon, Spinner } from '../../ui/icons';
import { FormError } from '../../ui/StateViews';
import { toBody, type DeviceDraft } from './draft';
import { CATEGORIES, CATEGORY_ONE, type DeviceCategory, type PatchDeviceBody } from './types';
import { fmt } from '../../ui/locale';

export { draftFromDevice, draftFromIdentified, EMPTY_DRAFT, type DeviceDraft } from './draft';

function Field({ label, children, hint, error }: { label: string; children: (id: string, describedBy: string | undefined) => ReactNode; hint?: string; error?: string }): ReactElement {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      ) : null}
      {children(id, [hintId, errorId].filter(Boolean).join(' ') || undefined)}
      {error ? (
        <span id={errorId} className="field__error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export interface DeviceFormProps {
  initial: DeviceDraft;
  /** Shown above the fields (what was read, how sure, why the AI could not help). */
  intro?: ReactNode;
  saveLabel: string;
  cancelLabel?: string;
  busy: boolean;
  /** The server's refusal (a sentence), or null. */
  error: string | null;
  /** Field problems from the server's answer, keyed by field. */
  fieldErrors?: Record<string, string>;
  onSave: (body: PatchDeviceBody & { name: string }) => void;
  onCancel: () => void;
  testId?: string;
}

export function DeviceForm({ initial, intro, saveLabel, cancelLabel = 'Cancel', busy, error, fieldErrors = {}, onSave, onCancel, testId }: DeviceFormProps): ReactElement {
  const [d, setD] = useState<DeviceDraft>(initial);
  const [local, setLocal] = useState<Record<string, string>>({});
  const set = <K extends keyof DeviceDraft>(key: K, value: DeviceDraft[K]) => setD((prev) => ({ ...prev, [key]: value }));
  const errs = { ...fieldErrors, ...local };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // the price is read as the member writes numbers (their language's decimal mark)
    const r = toBody(d, fmt().locale.language);
    if (r.errors) {
      setLocal(r.errors);
      return;
    }
    setLocal({});
    onSave(r.body);
  };

  const text = (key: Exclude<keyof DeviceDraft, 'category' | 'specs'>, label: string, extra: { type?: string; hint?: string; autoComplete?: string; inputMode?: 'decimal' } = {}) => (
    <Field label={label} hint={extra.hint} error={errs[key]}>
      {(id, describedBy) => (
        <input
          id={id}
          className="input"
          type={extra.type ?? 'text'}
          inputMode={extra.inputMode}
          value={d[key]}
          onChange={(e) => set(key, e.target.value)}
          aria-describedby={describedBy}
          aria-invalid={errs[key] ? true : undefined}
          autoComplete={extra.autoComplete ?? 'off'}
        />
      )}
    </Field>
  );

  return (
    <form className="inv-form" onSubmit={submit} noValidate data-testid={testId}>
      {intro}
      <fieldset className="inv-form__group">
        <legend className="inv-form__legend">What it is</legend>
        {text('name', 'Name')}
        {text('brand', 'Brand')}
        {text('model', 'Model')}
        {text('serialNumber', 'Serial number')}
        <Field label="Kind of thing">
          {(id) => (
            <select id={id} className="input" value={d.category} onChange={(e) => set('category', e.target.value as DeviceCategory)}>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_ONE[c]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {text('manufacturedDate', 'Made on', { hint: 'When it was made, as the label says it: for example 2023-04 or “week 14, 2023”.' })}
        {text('countryOfOrigin', 'Made in', { hint: 'The country, as the label says it: for example Germany.' })}
      </fieldset>

      <fieldset className="inv-form__group">
        <legend className="inv-form__legend">From the label</legend>
        {d.specs.length === 0 ? <p className="muted">No specifications yet.</p> : null}
        <ul className="inv-specs">
          {d.specs.map((row, i) => (
            <li key={i} className="inv-specs__row">
              <input
                className="input"
                aria-label={`Specification ${i + 1}: name`}
                placeholder="Name, like Voltage"
                value={row.key}
                onChange={(e) => set('specs', d.specs.map((r, j) => (j === i ? { ...r, key: e.target.value } : r)))}
              />
              <input
                className="input"
                aria-label={`Specification ${i + 1}: value`}
                placeholder="Value, like 230 V"
                value={row.value}
                onChange={(e) => set('specs', d.specs.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)))}
              />
              <button type="button" className="btn btn--ghost btn--icon" aria-label={`Remove specification ${row.key || i + 1}`} onClick={() => set('specs', d.specs.filter((_, j) => j !== i))}>
                <Icon name="close" size={20} />
              </button>
            </li>
          ))}
        </ul>
        {errs.specs ? <p className="field__error">{errs.specs}</p> : null}
        <button type="button" className="btn btn--secondary btn--compact" onClick={() => set('specs', [...d.specs, { key: '', value: '' }])}>
          <Icon name="plus" size={20} />
          Add a specification
        </button>
      </fieldset>

      <fieldset className="inv-form__group">
        <legend className="inv-form__legend">Buying and warranty</legend>
        {text('purchaseDate', 'Bought on', { type: 'date' })}
        {text('purchasePrice', 'Price', { inputMode: 'decimal' })}
        {text('purchaseStore', 'Bought from')}
        {text('warrantyExpires', 'Warranty ends', { type: 'date', hint: 'Hearth reminds whoever added it 30 and 7 days before.' })}
      </fieldset>

      <fieldset className="inv-form__group">
        <legend className="inv-form__legend">Where and whose</legend>
        {text('location', 'Where it is', { hint: 'For example Kitchen or Garage.' })}
        {text('owner', 'Whose it is')}
        <Field label="Notes" error={errs.notes}>
          {(id) => <textarea id={id} className="input" rows={3} value={d.notes} onChange={(e) => set('notes', e.target.value)} />}
        </Field>
      </fieldset>

      <FormError message={error ?? (Object.keys(local).length ? 'Some fields need a look: see the notes beside them.' : null)} />
      <div className="actions inv-form__actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? <Spinner size={20} /> : <Icon name="check" size={20} />}
          {saveLabel}
        </button>
      </div>
    </form>
  );
}
