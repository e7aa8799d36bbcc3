// Sections of ModelsPage.tsx (ModelsPage), each drawn by the page.
import { useId, useState, type FormEvent, type ReactElement } from 'react';
import { Link } from 'react-router';
import { useAction } from '../../api/useAction';
import { formatBytes } from '../../ui/format';
import { Icon, Spinner } from '../../ui/icons';
import { IconButton } from '../../ui/IconButton';
import { Name } from '../../ui/Name';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { JobProgress, type DownloadJob as Job } from '../downloads';
import { MODEL_ACCESS_KEY, modelsApi } from './queries';
import type { EssentialRoleName, MemberModelAccess, ModelCapability, ModelView } from './types';

export const CAPABILITY_TEXT: Record<ModelCapability, string> = {
  chat: 'Chat',
  vision: 'Sees pictures',
  tools: 'Uses tools',
  embedding: 'Search index',
};

export const ROLES: Array<{ role: EssentialRoleName; label: string; hint: string; needs: ModelCapability; badge: string }> = [
  { role: 'chat', label: 'Chat model', hint: 'Answers questions in Chat and the Reader.', needs: 'chat', badge: 'Household chat model' },
  { role: 'embeddings', label: 'Search index model', hint: 'Finds things by meaning in search.', needs: 'embedding', badge: 'Search index model' },
  { role: 'router', label: 'Router model', hint: 'A small, quick model for titles and sorting questions.', needs: 'chat', badge: 'Router model' },
  { role: 'vision', label: 'Vision model', hint: 'Looks at photos: Analyze a photo, pictures in chat, reading device labels.', needs: 'vision', badge: 'Vision model' },
];

export const FIT_BADGE: Record<NonNullable<ModelView['fit']>, { text: string; tone: string }> = {
  fits: { text: 'Runs well here', tone: 'ok' },
  slow: { text: 'Slow here', tone: 'warn' },
  wont_fit: { text: 'Too big for this computer', tone: 'error' },
};

export const isActive = (j: Job) => j.kind === 'runtime_model' && (j.state === 'pending' || j.state === 'running');

export function RoleSelect(props: { label: string; hint: string; value: string | null; adopted: boolean; options: string[]; busy: boolean; disabled: boolean; onChange: (model: string) => void }): ReactElement {
  const id = useId();
  const { label, hint, value, adopted, options, busy, disabled, onChange } = props;
  const missing = value !== null && !options.includes(value);
  return (
    <div className="field models-role">
      <label htmlFor={id} className="field__label">
        {label} {busy ? <Spinner size={16} /> : null}
      </label>
      <span id={`${id}-hint`} className="field__hint">
        {hint}
        {adopted && value ? ` Hearth picked ${value} because this computer already had it; choose another here if you like.` : null}
      </span>
      <select id={id} className="input" aria-describedby={`${id}-hint`} value={value ?? ''} disabled={disabled || options.length === 0} onChange={(e) => e.target.value && onChange(e.target.value)}>
        {value === null ? <option value="">{options.length ? 'Choose a model' : 'No model can do this yet'}</option> : null}
        {missing ? <option value={value}>{value} (not on this computer)</option> : null}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}

export function ModelRow({ model, onDelete }: { model: ModelView; onDelete: () => void }): ReactElement {
  const facts = [model.sizeBytes ? formatBytes(model.sizeBytes) : null, model.family, model.parameterSize ? `${model.parameterSize} parameters` : null].filter(Boolean);
  const fit = model.fit ? FIT_BADGE[model.fit] : null;
  return (
    <li className="feature model" data-testid="model-row" data-model={model.name}>
      <div className="feature__main">
        <div className="feature__head">
          <Name className="feature__name">{model.name}</Name>
          {model.roles.map((role) => (
            <span key={role} className="badge badge--accent">
              {ROLES.find((r) => r.role === role)!.badge}
            </span>
          ))}
        </div>
        <p className="feature__size muted">{facts.join(' · ')}</p>
        <ul className="model__caps" aria-label={`What ${model.name} can do`}>
          {model.capabilities.length ? (
            model.capabilities.map((c) => (
              <li key={c} className="badge badge--info">
                {CAPABILITY_TEXT[c]}
              </li>
            ))
          ) : (
            <li className="muted">Hearth could not tell what it can do.</li>
          )}
        </ul>
        {fit ? (
          <p className="model__fit">
            <span className={`badge badge--${fit.tone}`}>{fit.text}</span> <span className="muted">{model.fitNote}</span>
          </p>
        ) : null}
      </div>
      <div className="feature__actions">
        <IconButton icon="trash" label="Delete" accessibleLabel={`Delete ${model.name}`} labelShown="always" tone="danger-ghost" onClick={onDelete} />
      </div>
    </li>
  );
}

export function PullSection(props: { pulling: Job[]; failed: Job[]; busy: boolean; error: string | null; onPull: (name: string) => Promise<void> }): ReactElement {
  const { pulling, failed, busy, error, onPull } = props;
  const [name, setName] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const wanted = name.trim();
    if (!wanted) return;
    await onPull(wanted);
    setName('');
  };
  return (
    <section className="card models-section" aria-labelledby="models-pull-title">
      <h2 id="models-pull-title" className="models-section__title">
        Add a model
      </h2>
      <form className="models-pull" onSubmit={(e) => void submit(e)}>
        <TextField
          label="Model name"
          hint="As Ollama's library names it, for example llama3.2:3b or qwen3:0.6b."
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          error={error}
        />
        <button type="submit" className="btn btn--primary" disabled={busy || !name.trim()}>
          {busy ? <Spinner size={20} /> : <Icon name="download" size={20} />}
          Download
        </button>
      </form>
      {pulling.length || failed.length ? (
        <ul className="models-pulls" aria-label="Model downloads" data-testid="model-pulls">
          {pulling.map((j) => (
            <li key={j.id}>
              <span className="feature__name">{j.target}</span> <span className="muted">{j.state === 'running' ? 'Downloading' : 'Waiting to start'}</span>
              <JobProgress label={`Downloading ${j.target}`} figures={j} live={j.state === 'running'} />
            </li>
          ))}
          {failed.map((j) => (
            <li key={j.id}>
              <span className="feature__name">{j.target}</span> <span className="badge badge--error">Did not download</span>
              <p className="muted">
                {j.lastError ?? 'The download stopped.'} <Link to="/downloads">Try again on the Downloads page</Link>
              </p>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function AccessSection(props: { members: MemberModelAccess[] | undefined; loadError: unknown; onRetry: () => void; chatModels: string[] }): ReactElement {
  const { members, loadError, onRetry, chatModels } = props;
  const toast = useToast();
  const { busy, error, act } = useAction({ invalidates: [MODEL_ACCESS_KEY] });
  const save = (m: MemberModelAccess, allowed: string[] | null) =>
    act(m.userId, async () => {
      await modelsApi.setAccess(m.userId, allowed);
      toast(allowed === null ? `${m.name} may use every chat model.` : allowed.length === 0 ? `${m.name} may not use any chat model.` : `${m.name} may use ${allowed.join(', ')}.`);
      return null;
    });
  return (
    <section className="card models-section" aria-labelledby="models-access-title">
      <h2 id="models-access-title" className="models-section__title">
        Who may use which model
      </h2>
      <p className="muted">Admins may always use every model. Members see only the chat models chosen for them.</p>
      {!members ? (
        loadError ? (
          <ErrorState title="Members did not load" error={loadError} onRetry={onRetry} />
        ) : (
          <LoadingState label="Loading members…" />
        )
      ) : members.length === 0 ? (
        <EmptyState title="No members yet" action={<Link to="/members" className="btn btn--secondary">Add members</Link>}>
          Everyone you add as a member can be given their own set of chat models here.
        </EmptyState>
      ) : (
        <ul className="feature-list" aria-label="Members' models" data-testid="model-access">
          {members.map((m) => (
            <li key={m.userId} className="feature models-member" data-testid="model-access-member" data-user={m.name}>
              <div className="feature__main">
                <div className="feature__head">
                  <Name className="feature__name">{m.name}</Name>
                  {busy === m.userId ? <Spinner size={16} label="Saving" /> : null}
                </div>
                <Switch
                  label="All chat models"
                  hint={m.allowed === null ? 'Including models added later.' : 'Only the models ticked below.'}
                  checked={m.allowed === null}
                  disabled={busy !== null}
                  onCheckedChange={(all) => void save(m, all ? null : chatModels)}
                  testId={`all-models-${m.name}`}
                />
                {m.allowed !== null ? (
                  <fieldset className="models-member__choices">
                    <legend className="visually-hidden">Chat models {m.name} may use</legend>
                    {chatModels.map((name) => {
                      const allowed = m.allowed!;
                      const on = allowed.includes(name);
                      return (
                        <label key={name} className="models-check">
                          <input
                            type="checkbox"
                            checked={on}
                            disabled={busy !== null}
                            onChange={() => void save(m, on ? allowed.filter((a) => a !== name) : [...allowed, name])}
                          />
                          <span>{name}</span>
                        </label>
                      );
                    })}
                    {m.allowed.length === 0 ? <p className="fit-note">{m.name} cannot use Chat until you tick a model.</p> : null}
                  </fieldset>
                ) : null}
                <FormError message={error?.key === m.userId ? `${m.name}'s models were not changed. ${error.message}` : null} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
