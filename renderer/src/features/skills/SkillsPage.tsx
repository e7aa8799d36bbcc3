// /skills (issue 38): chat skills, reusable instruction packs picked from the chat's skill menu.
// The household's skills (three are built in) are shown to everyone and changed by admins; a
// member's own are private to them. A skill has a name, when to use it, the instructions the
// assistant follows, the chat tools it may use (none ticked: the usual ones) and starter prompts.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import type { Skill, SkillsResponse } from '../../api/types';
import { useUser } from '../../app/session';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { TextField } from '../../ui/TextField';
import { useDeleteSkill, useSaveSkill, useSkills, type SkillDraft } from './queries';
import './skills.css';

function SkillForm({ skill, tools, admin, onDone }: { skill: Skill | null; tools: SkillsResponse['tools']; admin: boolean; onDone: () => void }): ReactElement {
  const save = useSaveSkill();
  const ids = useId();
  const [draft, setDraft] = useState<SkillDraft>({
    name: skill?.name ?? '',
    description: skill?.description ?? '',
    instructions: skill?.instructions ?? '',
    tools: skill?.tools ?? [],
    starterPrompts: skill?.starterPrompts ?? [],
    scope: skill?.scope ?? 'mine',
  });
  const [prompts, setPrompts] = useState((skill?.starterPrompts ?? []).join('\n'));
  const [error, setError] = useState<string | null>(null);
  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setError(null);
    const starterPrompts = prompts
      .split('\n')
      .map((p) => p.trim())
      .filter(Boolean);
    try {
      await save.mutateAsync({ id: skill?.id ?? null, draft: { ...draft, starterPrompts } });
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <form className="card skills__form" onSubmit={(ev) => void submit(ev)} aria-label={skill ? `Change ${skill.name}` : 'New skill'}>
      <TextField label="Name" value={draft.name} onChange={(ev) => setDraft({ ...draft, name: ev.target.value })} required maxLength={80} />
      <TextField label="When to use it" value={draft.description} onChange={(ev) => setDraft({ ...draft, description: ev.target.value })} maxLength={300} />
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-instructions`}>
          Instructions for the assistant
        </label>
        <textarea id={`${ids}-instructions`} className="skills__textarea" value={draft.instructions} onChange={(ev) => setDraft({ ...draft, instructions: ev.target.value })} required maxLength={8000} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-prompts`}>
          Starter prompts (one a line, up to 6)
        </label>
        <textarea id={`${ids}-prompts`} className="skills__textarea" value={prompts} onChange={(ev) => setPrompts(ev.target.value)} />
      </div>
      {tools.length > 0 ? (
        <fieldset className="skills__tools">
          <legend className="field__label">Tools it may use (none ticked: the usual ones)</legend>
          {tools.map((t) => (
            <label key={t.id}>
              <input type="checkbox" checked={draft.tools.includes(t.id)} onChange={(ev) => setDraft({ ...draft, tools: ev.target.checked ? [...draft.tools, t.id] : draft.tools.filter((x) => x !== t.id) })} />
              {t.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      {admin && !skill ? (
        <label className="skills__check">
          <input type="checkbox" checked={draft.scope === 'household'} onChange={(ev) => setDraft({ ...draft, scope: ev.target.checked ? 'household' : 'mine' })} /> For the whole household
        </label>
      ) : null}
      <FormError message={error} />
      <div className="skills__actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save skill'}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function SkillItem({ skill, onEdit }: { skill: Skill; onEdit: () => void }): ReactElement {
  const del = useDeleteSkill();
  const [error, setError] = useState<string | null>(null);
  return (
    <li className="card skills__item">
      <strong>{skill.name}</strong>
      <span className="muted">
        {skill.scope === 'household' ? 'Household' : 'Only you'}
        {skill.description ? ` · ${skill.description}` : ''}
      </span>
      <div className="skills__actions">
        <Link className="btn btn--secondary btn--compact" to={`/chat?skill=${encodeURIComponent(skill.id)}`}>
          Chat with it
        </Link>
        {skill.editable ? (
          <>
            <button type="button" className="btn btn--ghost btn--compact" onClick={onEdit}>
              Change
            </button>
            <button type="button" className="btn btn--danger-ghost btn--compact" disabled={del.isPending} onClick={() => del.mutateAsync(skill.id).catch((err: unknown) => setError(errorMessage(err)))}>
              Delete
            </button>
          </>
        ) : null}
      </div>
      <FormError message={error} />
    </li>
  );
}

export function SkillsPage(): ReactElement {
  const q = useSkills();
  const admin = useUser().role === 'admin';
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  return (
    <section className="page skills" aria-labelledby="skills-title">
      <PageHeader titleId="skills-title" title="Skills" description="Ready-made ways of working for the chat: pick one above a chat and the assistant follows its instructions." />
      {q.isPending ? (
        <LoadingState label="Loading skills…" />
      ) : q.isError ? (
        <ErrorState error={q.error} title="Skills did not load" onRetry={() => void q.refetch()} />
      ) : (
        <>
          {editing === 'new' ? (
            <SkillForm skill={null} tools={q.data.tools} admin={admin} onDone={() => setEditing(null)} />
          ) : (
            <button type="button" className="btn btn--primary" onClick={() => setEditing('new')}>
              New skill
            </button>
          )}
          {q.data.skills.length === 0 ? (
            <EmptyState title="No skills yet">Make one with New skill.</EmptyState>
          ) : (
            <ul className="skills__list">
              {q.data.skills.map((s) => (editing === s.id ? <li key={s.id}><SkillForm skill={s} tools={q.data.tools} admin={admin} onDone={() => setEditing(null)} /></li> : <SkillItem key={s.id} skill={s} onEdit={() => setEditing(s.id)} />))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
