// /companions/manage (admins, issue 32): the household's companions. Each can be edited (name,
// description, avatar, system prompt, model or the household's, content level, greeting) or deleted,
// a new one created (a built-in one cannot be deleted, which its card says), and granted or withheld per member (PUT /api/admin/companions/:id/grants/:userId).
// Without an explicit grant a companion at `child` is everyone's and any other nobody's; a member
// also needs a Chat level at or above the companion's, which the page says.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import type { AdminCompanion, AdminUser } from '../../api/types';
import { useMembers } from '../members';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { useAdminCompanions, useCreateCompanion, useDeleteCompanion, useSetGrant, useUpdateCompanion, type CompanionInput } from './queries';
import './companions.css';

type Level = CompanionInput['level'];
const LEVELS: { value: Level; label: string }[] = [
  { value: 'child', label: 'Child: everyone' },
  { value: 'teen', label: 'Teen and adult members' },
  { value: 'adult', label: 'Adult members only' },
];
const EMPTY: CompanionInput = { name: '', description: '', avatar: '🙂', systemPrompt: '', model: null, level: 'child', greeting: '' };

function CompanionForm({ initial, submitLabel, onSubmit, onCancel }: { initial: CompanionInput; submitLabel: string; onSubmit: (body: CompanionInput) => Promise<unknown>; onCancel: () => void }): ReactElement {
  const [d, setD] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const ids = useId();
  const set = <K extends keyof CompanionInput>(k: K, v: CompanionInput[K]) => setD((old) => ({ ...old, [k]: v }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing: Record<string, string> = {};
    for (const k of ['name', 'description', 'avatar', 'systemPrompt', 'greeting'] as const) if (!d[k].trim()) missing[k] = 'Fill this in.';
    setFields(missing);
    setError(null);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      await onSubmit({ ...d, model: d.model?.trim() ? d.model.trim() : null });
    } catch (err) {
      setFields(err instanceof ApiError ? err.fieldIssues : {});
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="companion-form" onSubmit={(e) => void submit(e)} noValidate>
      <TextField label="Name" maxLength={60} value={d.name} onChange={(e) => set('name', e.target.value)} error={fields.name} />
      <TextField label="Avatar" hint="An emoji or up to 16 characters." maxLength={16} value={d.avatar} onChange={(e) => set('avatar', e.target.value)} error={fields.avatar} />
      <TextField label="Description" maxLength={300} value={d.description} onChange={(e) => set('description', e.target.value)} error={fields.description} />
      <TextField label="Greeting" hint="What it says when a chat starts." maxLength={500} value={d.greeting} onChange={(e) => set('greeting', e.target.value)} error={fields.greeting} />
      <div className="field">
        <label htmlFor={`${ids}-prompt`} className="field__label">
          System prompt
        </label>
        <span id={`${ids}-prompt-hint`} className="field__hint">
          How it answers. Added after Hearth&apos;s own instructions and the member&apos;s content level.
        </span>
        <textarea id={`${ids}-prompt`} aria-describedby={`${ids}-prompt-hint`} className="input" rows={4} maxLength={4000} value={d.systemPrompt} onChange={(e) => set('systemPrompt', e.target.value)} />
        {fields.systemPrompt ? <span className="field__error">{fields.systemPrompt}</span> : null}
      </div>
      <TextField label="Model (optional)" hint="Leave empty to use the household's chat model." maxLength={200} value={d.model ?? ''} onChange={(e) => set('model', e.target.value)} error={fields.model} />
      <div className="field">
        <label htmlFor={`${ids}-level`} className="field__label">
          Content level
        </label>
        <select id={`${ids}-level`} className="input" value={d.level} onChange={(e) => set('level', e.target.value as Level)}>
          {LEVELS.map((l) => (
            <option key={l.value} value={l.value}>
              {l.label}
            </option>
          ))}
        </select>
      </div>
      <FormError message={error} />
      <div className="companion__actions">
        <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? <Spinner size={20} /> : null}
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

function Grants({ companion, members }: { companion: AdminCompanion; members: AdminUser[] }): ReactElement {
  const setGrant = useSetGrant();
  const [error, setError] = useState<string | null>(null);
  const granted = (userId: string) => companion.grants.find((g) => g.userId === userId)?.granted ?? companion.level === 'child';
  const flip = async (userId: string, on: boolean) => {
    setError(null);
    try {
      await setGrant.mutateAsync({ id: companion.id, userId, granted: on });
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <fieldset className="companion-admin__grants">
      <legend>Who may use {companion.name}</legend>
      {members.map((m) => (
        <Switch key={m.id} label={m.name} checked={granted(m.id)} disabled={setGrant.isPending} onCheckedChange={(on) => void flip(m.id, on)} />
      ))}
      <p className="muted">A member also needs a Chat content level at or above this companion&apos;s.</p>
      <FormError message={error} />
    </fieldset>
  );
}

function AdminCompanionCard({ companion, members }: { companion: AdminCompanion; members: AdminUser[] }): ReactElement {
  const update = useUpdateCompanion();
  const remove = useDeleteCompanion();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = `admin-companion-${companion.id}`;
  const { id, name, description, avatar, systemPrompt, model, level, greeting } = companion;
  return (
    <li className="card companion" aria-labelledby={titleId}>
      <div className="companion__head">
        <span className="companion__avatar" aria-hidden="true">
          {avatar}
        </span>
        <h2 id={titleId} className="companion__name">
          {name}
        </h2>
      </div>
      {editing ? (
        <CompanionForm
          initial={{ name, description, avatar, systemPrompt, model, level, greeting }}
          submitLabel="Save"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await update.mutateAsync({ id, body });
            setEditing(false);
          }}
        />
      ) : (
        <>
          <p className="companion__description">{description}</p>
          <p className="muted">
            {LEVELS.find((l) => l.value === level)?.label}. {model ? `Answers with ${model}.` : "Answers with the household's chat model."}
          </p>
          <div className="companion__actions">
            <button type="button" className="btn btn--secondary" onClick={() => setEditing(true)}>
              Edit {name}
            </button>
            {companion.builtin ? null : (
              <button type="button" className="btn btn--danger-ghost" onClick={() => setConfirming(true)}>
                Delete {name}
              </button>
            )}
          </div>
          {companion.builtin ? <p className="muted">Built in: it can be withheld from members but not deleted.</p> : null}
          <FormError message={error} />
          <Grants companion={companion} members={members} />
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${name}?`}
        description="Members can no longer chat with it. Their past chats stay."
        confirmLabel="Delete"
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          setError(null);
          try {
            await remove.mutateAsync(id);
          } catch (err) {
            setError(errorMessage(err));
          }
          setConfirming(false);
        }}
      />
    </li>
  );
}

export function CompanionsAdminPage(): ReactElement {
  const companions = useAdminCompanions();
  const members = useMembers();
  const create = useCreateCompanion();
  const [adding, setAdding] = useState(false);
  let body: ReactElement;
  if (companions.isPending || members.isPending) body = <LoadingState label="Loading companions…" />;
  else if (companions.isError || members.isError)
    body = (
      <ErrorState
        error={companions.error ?? members.error}
        title="Companions did not load"
        onRetry={() => {
          void companions.refetch();
          void members.refetch();
        }}
      />
    );
  else
    body = (
      <>
        {adding ? (
          <section className="card companion" aria-label="New companion">
            <CompanionForm
              initial={EMPTY}
              submitLabel="Create companion"
              onCancel={() => setAdding(false)}
              onSubmit={async (b) => {
                await create.mutateAsync(b);
                setAdding(false);
              }}
            />
          </section>
        ) : null}
        {companions.data.length === 0 ? (
          <EmptyState icon="smile" title="No companions yet">
            Create one for the household with New companion.
          </EmptyState>
        ) : (
          <ul className="companions__list" aria-label="Household companions">
            {companions.data.map((c) => (
              <AdminCompanionCard key={c.id} companion={c} members={members.data} />
            ))}
          </ul>
        )}
      </>
    );
  return (
    <section className="page companions" aria-labelledby="companions-admin-title">
      <PageHeader
        titleId="companions-admin-title"
        title="Edit companions"
        description="Each companion answers with its own instructions. Choose who may use each one."
        actions={
          <>
            <Link className="btn btn--secondary" to="/companions">
              Your companions
            </Link>
            <button type="button" className="btn btn--primary" onClick={() => setAdding(true)} disabled={adding}>
              New companion
            </button>
          </>
        }
      />
      {body}
    </section>
  );
}
