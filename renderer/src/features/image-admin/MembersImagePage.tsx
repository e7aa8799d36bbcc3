// Who may use what (admin): per member, their picture protections (the safety words added to every
// prompt unless uncensored pictures are allowed; adult add-ons blocked, the default) and which
// add-ons (LoRAs) and categories they may use. Members get none until allowed here (default deny);
// "Blocked" keeps one add-on out even when its category is allowed. Allowing an adult add-on for a
// member whose adult add-ons are blocked is refused (409 adult_lora_blocked), said as a sentence.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import type { AdminUser } from '../../api/types';
import { Icon } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { Switch } from '../../ui/Switch';
import { useMembers } from '../members';
import { useAdminLoras, useMemberGrants, useSetGrant, useSetProtections, type GrantTarget } from './queries';
import type { AdminLora, GrantState, LoraCategory, MemberGrants } from './types';
import { SegmentedControl } from '../../ui/SegmentedControl';
import '../image/image.css';
import './image-admin.css';

export function MembersImagePage(): ReactElement {
  const members = useMembers();
  const [chosen, setChosen] = useState<string | null>(null);
  const people = (members.data ?? []).filter((m) => m.role !== 'admin');
  const current = people.find((m) => m.id === chosen) ?? people[0] ?? null;
  return (
    <section className="page img-admin" aria-labelledby="img-members-title">
      <PageHeader titleId="img-members-title" title="Pictures: who may use what" description="For each member: how careful their pictures are, and which add-ons they may use. Admins may use every add-on that is on." />
      <p className="img-admin__links">
        <Link to="/admin/image-loras" className="btn btn--ghost btn--compact">
          <Icon name="sparkles" size={20} />
          Add-ons (LoRAs)
        </Link>
      </p>
      {!members.data ? (
        members.error ? <ErrorState title="The members did not load" error={members.error} onRetry={() => void members.refetch()} /> : <LoadingState label="Loading the members…" />
      ) : people.length === 0 || !current ? (
        <EmptyState
          title="No members yet"
          action={
            <Link to="/members" className="btn btn--secondary">
              Add a member
            </Link>
          }
        >
          Settings here are for the members who are not admins.
        </EmptyState>
      ) : (
        <>
          <div className="img-chips" role="group" aria-label="Member">
            {people.map((m) => (
              <button key={m.id} type="button" className="img-chip" aria-pressed={m.id === current.id} onClick={() => setChosen(m.id)}>
                {m.name}
              </button>
            ))}
          </div>
          <MemberSettings key={current.id} member={current} />
        </>
      )}
    </section>
  );
}

function MemberSettings({ member }: { member: AdminUser }): ReactElement {
  const grants = useMemberGrants(member.id);
  const loras = useAdminLoras();
  if (!grants.data || !loras.data) {
    const error = grants.error ?? loras.error;
    return error ? <ErrorState title={`${member.name}’s picture settings did not load`} error={error} onRetry={() => void Promise.all([grants.refetch(), loras.refetch()])} /> : <LoadingState label="Loading…" />;
  }
  return <Settings member={member} grants={grants.data} loras={loras.data.loras} categories={loras.data.categories} />;
}

function grantSentence(err: unknown, member: AdminUser, what: string): string {
  if (err instanceof ApiError && err.code === 'adult_lora_blocked')
    return `${what} is for adults, and adult add-ons are blocked for ${member.name}. Turn off “Block adult add-ons” for ${member.name} first if you are sure.`;
  return errorMessage(err);
}

function Settings({ member, grants, loras, categories }: { member: AdminUser; grants: MemberGrants; loras: AdminLora[]; categories: LoraCategory[] }): ReactElement {
  const setGrant = useSetGrant(member.id);
  const setProtections = useSetProtections(member.id);
  const [error, setError] = useState<string | null>(null);
  const loraState = new Map(grants.loras.map((g) => [g.loraId, g.state]));
  const categoryState = new Map(grants.categories.map((g) => [g.categoryId, g.state]));

  const change = (target: GrantTarget, what: string, state: GrantState | null) => {
    setError(null);
    setGrant.mutate({ target, state }, { onError: (err) => setError(grantSentence(err, member, what)) });
  };

  return (
    <div data-testid="member-image-settings">
      <div className="card img-admin__card">
        <h2 className="img-h2 img-admin__h2">{member.name}’s pictures</h2>
        <Switch
          label="Block adult add-ons"
          hint="Add-ons marked for adults cannot be allowed for them."
          checked={grants.protections.blockAdultLoras}
          onCheckedChange={(on) => setProtections.mutate({ blockAdultLoras: on }, { onError: (err) => setError(errorMessage(err)) })}
          testId="protect-block-adult"
        />
        <Switch
          label="Uncensored pictures"
          hint="Off (the usual): Hearth adds safety words to every picture they ask for."
          checked={grants.protections.uncensoredImages}
          onCheckedChange={(on) => setProtections.mutate({ uncensoredImages: on }, { onError: (err) => setError(errorMessage(err)) })}
          testId="protect-uncensored"
        />
      </div>

      {error ? (
        <p className="banner banner--error" role="alert" data-testid="grant-error">
          <Icon name="warn" size={22} />
          <span>{error}</span>
        </p>
      ) : null}

      <div className="card img-admin__card">
        <h2 className="img-h2 img-admin__h2">Categories</h2>
        {categories.length === 0 ? (
          <p className="muted">No categories yet. Make them on the add-ons page.</p>
        ) : (
          <ul className="img-admin__list" aria-label={`Categories for ${member.name}`}>
            {categories.map((c) => (
              <GrantRow key={c.id} name={c.name} note={c.hasAdult ? 'Holds add-ons for adults' : `${c.loraCount} ${c.loraCount === 1 ? 'add-on' : 'add-ons'}`} state={categoryState.get(c.id) ?? null} onChange={(s) => change({ kind: 'category', id: c.id }, `The category ${c.name}`, s)} />
            ))}
          </ul>
        )}
      </div>

      <div className="card img-admin__card">
        <h2 className="img-h2 img-admin__h2">Add-ons</h2>
        {loras.length === 0 ? (
          <p className="muted">No add-ons yet. Add them on the add-ons page.</p>
        ) : (
          <ul className="img-admin__list" aria-label={`Add-ons for ${member.name}`}>
            {loras.map((l) => (
              <GrantRow
                key={l.id}
                name={l.name}
                note={[l.category?.name, l.isAdult ? 'For adults' : null, l.enabled ? null : 'Off for everyone'].filter(Boolean).join(' · ') || null}
                state={loraState.get(l.id) ?? null}
                onChange={(s) => change({ kind: 'lora', id: l.id }, l.name, s)}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

const CHOICES: readonly { state: GrantState | null; label: string }[] = [
  { state: null, label: 'Not set' },
  { state: 'on', label: 'Allowed' },
  { state: 'off', label: 'Blocked' },
];

function GrantRow({ name, note, state, onChange }: { name: string; note: string | null; state: GrantState | null; onChange: (s: GrantState | null) => void }): ReactElement {
  return (
    <li className="img-admin__grant">
      <div className="img-admin__item-text">
        <span className="img-admin__item-name">{name}</span>
        {note ? <span className="muted">{note}</span> : null}
      </div>
      <SegmentedControl label={name} value={state} onChange={onChange} options={CHOICES.map((c) => ({ value: c.state, label: c.label }))} />
    </li>
  );
}
