// Wizard step: the plan. The three essentials (the chat model fitted to this computer, search
// memory and the router) are always installed; extras are grouped as in the catalog with their
// download size and memory need, the suggested ones pre-checked. Checking an item checks what it
// needs; the running total of disk needed is held against the free space. Without the model
// runtime the plan says so first: the essentials and the model extras wait (none is pre-checked,
// none can be checked), the rest installs now.
import { useMemo, useState, type ReactElement, type Ref } from 'react';
import { formatBytes } from '../../ui/format';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { useSetupCatalog } from './queries';
import { itemSizeText, SLOW_NOTE, planItems, withRequirements, type CatalogItem } from '../features-admin';
import type { SetupCatalog } from '../../api/types';

const ESSENTIALS = ['chat', 'embeddings', 'router'] as const;

type PlanItem = ReturnType<typeof planItems>[number];

export function PlanStep({
  headingRef,
  savedExtras,
  onChange,
  onBack,
  onContinue,
  onSkip,
}: {
  headingRef: Ref<HTMLHeadingElement>;
  /** Extras picked before a reload; null on the first visit (the suggested ones are pre-checked). */
  savedExtras: string[] | undefined;
  onChange: (extras: string[]) => void;
  onBack: () => void;
  onContinue: (extras: string[]) => void;
  onSkip: () => void;
}): ReactElement {
  const plan = useSetupCatalog();
  const data = plan.data;

  return (
    <>
      <h1 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="wizard__title">
        Your plan
      </h1>
      <p className="muted">
        {data?.runtime?.running === false
          ? 'Pick the extras to install now; you can add or remove them later under Features.'
          : 'Hearth always installs three essentials. Pick any extras you want now; you can add or remove them later under Features.'}
      </p>
      {plan.isPending ? (
        <LoadingState label="Working out the plan…" />
      ) : plan.status === 'error' && !data ? (
        <>
          <ErrorState title="The plan did not load" error={plan.error} onRetry={() => void plan.refetch()} />
          <div className="actions">
            <button type="button" className="btn btn--secondary" onClick={onBack}>
              Back
            </button>
            <button type="button" className="btn btn--secondary btn--wide" onClick={onSkip}>
              Skip for now
            </button>
          </div>
        </>
      ) : data ? (
        <PlanChoices plan={data} savedExtras={savedExtras} onChange={onChange} onBack={onBack} onContinue={onContinue} />
      ) : null}
    </>
  );
}

function PlanChoices({
  plan,
  savedExtras,
  onChange,
  onBack,
  onContinue,
}: {
  plan: SetupCatalog;
  savedExtras: string[] | undefined;
  onChange: (extras: string[]) => void;
  onBack: () => void;
  onContinue: (extras: string[]) => void;
}): ReactElement {
  const all = useMemo(() => planItems(plan), [plan]);
  const byId = useMemo(() => new Map(all.map((i) => [i.id, i])), [all]);
  const essentialIds = new Set(ESSENTIALS.map((k) => plan.essentials[k].id));
  // extras: everything with something to download that is not an essential
  const isExtra = (i: CatalogItem) => !essentialIds.has(i.id) && i.installs.length > 0;
  // without the model runtime, items that install a model can only wait: not offered now
  const noRuntime = !plan.runtime.running;
  const waits = (id: string) => noRuntime && plan.needsRuntime.includes(id);
  const [selected, setSelected] = useState<Set<string>>(() => {
    const start = savedExtras ?? plan.recommended;
    return new Set(start.filter((id) => byId.has(id) && isExtra(byId.get(id)!) && !byId.get(id)!.installed && !waits(id)));
  });

  const update = (next: Set<string>) => {
    setSelected(next);
    onChange([...next]);
  };

  const toggle = (item: CatalogItem, on: boolean) => {
    const next = new Set(selected);
    if (on) {
      // what it needs comes along (the server would install it anyway; this keeps the total honest)
      for (const id of withRequirements([item.id], byId)) {
        const needed = byId.get(id);
        if (needed && !needed.installed && isExtra(needed) && !waits(id)) next.add(id);
      }
    } else {
      next.delete(item.id);
      // and whatever needed it goes too
      for (const id of [...next]) if (withRequirements([id], byId).has(item.id)) next.delete(id);
    }
    update(next);
  };

  const essentialsBytes = noRuntime ? 0 : ESSENTIALS.map((k) => plan.essentials[k]).reduce((n, i) => n + (i.installed ? 0 : i.diskBytes), 0);
  const extrasBytes = [...withRequirements(selected, byId)].reduce((n, id) => {
    const i = byId.get(id);
    return n + (i && !i.installed && !essentialIds.has(id) ? i.diskBytes : 0);
  }, 0);
  const total = essentialsBytes + extrasBytes;
  const free = plan.hardware.diskFreeBytes;
  const tooBig = free !== null && total > free;
  const share = free && free > 0 ? Math.min(100, Math.round((total / free) * 100)) : null;

  return (
    <>
      <h2 className="plan__heading">Essentials</h2>
      {noRuntime ? (
        <div className="banner banner--warn" role="status" data-testid="plan-no-runtime">
          <Icon name="warn" size={22} />
          <span>
            The essentials are AI models, and Hearth installs models into Ollama, the model runtime.{' '}
            {plan.runtime.installed ? 'Ollama is installed but not running' : 'Ollama was not found on this computer'}, so the models
            (these three and the extras marked “Needs Ollama”) cannot be installed now. {plan.runtime.installed ? 'Start Ollama' : 'Install Ollama from ollama.com and start it'}, then
            add them under Features. Everything else you pick installs now.
          </span>
        </div>
      ) : null}
      <ul className="plan-list" aria-label="Essentials" data-testid="plan-essentials">
        {ESSENTIALS.map((key) => {
          const item = plan.essentials[key];
          const slow = key === 'chat' ? !plan.essentials.chat.fitsBudget : !item.fits;
          return (
            <li key={key} className={noRuntime ? 'plan-item plan-item--essential is-waiting' : 'plan-item plan-item--essential'}>
              <span className="plan-item__mark" aria-hidden="true">
                <Icon name={noRuntime ? 'warn' : 'check'} size={20} />
              </span>
              <div className="plan-item__text">
                <span className="plan-item__name">
                  {item.name}
                  {key === 'chat' ? <span className="badge badge--accent">Picked for this computer</span> : null}
                  {item.installed ? <span className="badge badge--ok">Installed</span> : noRuntime ? <span className="badge badge--warn">Needs Ollama</span> : null}
                </span>
                <span className="plan-item__desc">{item.description}</span>
                <span className="plan-item__size">{itemSizeText(item)}</span>
                {slow ? <SlowNote /> : null}
              </div>
            </li>
          );
        })}
      </ul>

      <h2 className="plan__heading">Extras</h2>
      {plan.groups.map((g) => {
        const flat = [g.base, ...g.items].map((i) => byId.get(i.id)!).filter(isExtra);
        const cats = g.categories.map((c) => ({ ...c, items: c.items.map((i) => byId.get(i.id)!).filter(isExtra) })).filter((c) => c.items.length);
        if (!flat.length && !cats.length) return null;
        return (
          <fieldset key={g.id} className="plan-group">
            <legend className="plan-group__title">{g.name}</legend>
            {flat.length ? (
              <ul className="plan-list">
                {flat.map((i) => (
                  <ExtraRow key={i.id} item={i} checked={selected.has(i.id)} waits={waits(i.id)} byId={byId} onToggle={toggle} />
                ))}
              </ul>
            ) : null}
            {cats.map((c) => (
              <div key={c.id} className="plan-category">
                <h3 className="plan-category__title">{c.name}</h3>
                <ul className="plan-list">
                  {c.items.map((i) => (
                    <ExtraRow key={i.id} item={i} checked={selected.has(i.id)} waits={waits(i.id)} byId={byId} onToggle={toggle} />
                  ))}
                </ul>
              </div>
            ))}
          </fieldset>
        );
      })}

      <div className={tooBig ? 'plan-total is-over' : 'plan-total'} data-testid="plan-total">
        <p className="plan-total__text" aria-live="polite">
          Needs <strong>{formatBytes(total)}</strong>
          {free !== null ? (
            <>
              {' '}
              of <strong>{formatBytes(free)}</strong> free
            </>
          ) : null}
        </p>
        {share !== null ? (
          <div className="progress plan-total__meter" aria-hidden="true">
            <div className="progress__bar" style={{ width: `${share}%` }} />
          </div>
        ) : null}
        {tooBig ? (
          <p className="plan-total__warn" role="alert">
            That is more than the free space. Uncheck some extras, or free up space on this computer.
          </p>
        ) : null}
      </div>

      <div className="actions">
        <button type="button" className="btn btn--secondary" onClick={onBack}>
          Back
        </button>
        <button type="button" className="btn btn--primary btn--wide" onClick={() => onContinue([...selected])} disabled={tooBig}>
          <Icon name="download" size={20} />
          Install
        </button>
      </div>
    </>
  );
}

function SlowNote(): ReactElement {
  return (
    <span className="fit-note">
      <Icon name="warn" size={18} />
      {SLOW_NOTE}
    </span>
  );
}

function ExtraRow({
  item,
  checked,
  waits,
  byId,
  onToggle,
}: {
  item: PlanItem;
  checked: boolean;
  /** Installs a model while the model runtime is not running: shown, not offered. */
  waits: boolean;
  byId: ReadonlyMap<string, PlanItem>;
  onToggle: (item: CatalogItem, on: boolean) => void;
}): ReactElement {
  const id = `extra-${item.id}`;
  const needs = item.requires.map((r) => byId.get(r)?.name ?? r);
  return (
    <li className={checked || item.installed ? 'plan-item is-checked' : 'plan-item'}>
      <input
        id={id}
        type="checkbox"
        className="plan-item__check"
        checked={checked || item.installed}
        disabled={item.installed || waits}
        aria-describedby={`${id}-facts`}
        onChange={(e) => onToggle(item, e.target.checked)}
      />
      <div className="plan-item__text">
        <label htmlFor={id} className="plan-item__name">
          {item.name}
          {item.installed ? <span className="badge badge--ok">Installed</span> : waits ? <span className="badge badge--warn">Needs Ollama</span> : null}
        </label>
        <span id={`${id}-facts`} className="plan-item__facts">
          <span className="plan-item__desc">{item.description}</span>
          <span className="plan-item__size">{itemSizeText(item)}</span>
          {!item.fits ? <SlowNote /> : null}
          {item.advanced ? <span className="plan-item__desc">{item.advanced}</span> : null}
          {needs.length ? <span className="plan-item__desc">Needs {needs.join(' and ')}.</span> : null}
        </span>
      </div>
    </li>
  );
}
