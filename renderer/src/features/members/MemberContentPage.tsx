// Admin: one member's "Content and safety" (issue 32). Their content level (child, teen, adult) and,
// per area (chat, pictures, media, archives), a setting that may be tighter than the level, never
// looser: looser choices are disabled with the reason, lowering the level brings a looser area back
// to "same as the level", and should the server still refuse (422 area_looser_than_level) its
// sentence is shown. A summary says in plain words what each area means now ("Pictures:
// family-safe"). Nobody changes their own (the server's 403 own_content): an admin's own page reads
// only. Saving changes the member's picture protections too (the image admin page reads the dials).
import { useState, type FormEvent, type ReactElement } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import type { Level, MemberDials } from '../../api/types';
import { useUser } from '../../app/session';
import { Icon, Spinner } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { useMemberContent, useMembers, useSetMemberContent } from './queries';
import './member-content.css';

const LEVELS: readonly Level[] = ['child', 'teen', 'adult'];
const LEVEL_NAMES: Record<Level, string> = { child: 'Child', teen: 'Teen', adult: 'Adult' };
type Area = 'chat' | 'images' | 'media' | 'archives';
const AREAS: readonly Area[] = ['chat', 'images', 'media', 'archives'];
const AREA_NAMES: Record<Area, string> = { chat: 'Chat', images: 'Pictures', media: 'Media', archives: 'Archives' };

/** What each area does at each level, in plain words. */
const WORDS: Record<Area, Record<Level, string>> = {
  chat: { child: 'simple words, nothing violent or sexual', teen: 'nothing sexual', adult: 'no extra limits' },
  images: { child: 'family-safe', teen: 'family-safe', adult: 'uncensored' },
  media: { child: 'rated G, PG, TV-Y to TV-PG', teen: 'up to PG-13 and TV-14', adult: 'every rating' },
  archives: { child: 'archives marked for children', teen: 'archives marked for children or teens', adult: 'every archive' },
};

const rank = (l: Level) => LEVELS.indexOf(l);
type Draft = Omit<MemberDials, 'userId'>;

export function MemberContentPage(): ReactElement {
  const { userId = '' } = useParams();
  const me = useUser();
  const users = useMembers();
  const dials = useMemberContent(userId);
  const member = users.data?.find((u) => u.id === userId);
  const isMe = userId === me.id;
  const title = member ? `${isMe ? 'Your' : `${member.name}’s`} content and safety` : 'Content and safety';

  let body: ReactElement;
  if (dials.isError && dials.error instanceof ApiError && dials.error.status === 404) {
    body = (
      <EmptyState
        title="That member is not in the household"
        action={
          <Link to="/members" className="btn btn--secondary">
            Back to Members
          </Link>
        }
      />
    );
  } else if (dials.isError) body = <ErrorState title="The content settings did not load" error={dials.error} onRetry={() => void dials.refetch()} />;
  else if (dials.isPending) body = <LoadingState label="Loading the content settings…" />;
  else if (isMe) {
    body = (
      <>
        <p className="muted">You cannot change your own content settings. Another admin can change them for you.</p>
        <Summary draft={dials.data} />
      </>
    );
  } else body = <DialsForm key={JSON.stringify(dials.data)} userId={userId} name={member?.name ?? 'This member'} saved={dials.data} />;

  return (
    <section className="page" aria-labelledby="member-content-title">
      <PageHeader
        titleId="member-content-title"
        title={title}
        description="One level for chat, pictures, media and archives. Any area can be tighter than the level, never looser."
        actions={
          <Link to="/members" className="btn btn--secondary">
            <Icon name="back" size={20} />
            Members
          </Link>
        }
      />
      {body}
    </section>
  );
}

function effective(draft: Draft, area: Area): Level {
  const set = draft[area];
  return set && rank(set) < rank(draft.level) ? set : draft.level;
}

function Summary({ draft }: { draft: Draft }): ReactElement {
  return (
    <div className="card member-content__card">
      <h2 className="member-content__h2">In plain words</h2>
      <ul className="member-content__summary" data-testid="content-summary">
        {AREAS.map((a) => (
          <li key={a}>
            <strong>{AREA_NAMES[a]}:</strong> {WORDS[a][effective(draft, a)]}
          </li>
        ))}
      </ul>
    </div>
  );
}

function DialsForm({ userId, name, saved }: { userId: string; name: string; saved: MemberDials }): ReactElement {
  const save = useSetMemberContent(userId);
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>({ level: saved.level, chat: saved.chat, images: saved.images, media: saved.media, archives: saved.archives });
  const [error, setError] = useState<string | null>(null);

  const setLevel = (level: Level) => {
    setError(null);
    // an area looser than the new level goes back to following it (never looser than the level)
    setDraft((d) => {
      const next = { ...d, level };
      for (const a of AREAS) if (next[a] && rank(next[a]) > rank(level)) next[a] = null;
      return next;
    });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await save.mutateAsync(draft);
      toast(`Saved ${name}’s content settings.`);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <div className="card member-content__card">
        <h2 className="member-content__h2" id="member-content-level">
          Level
        </h2>
        <SegmentedControl label={`${name}’s content level`} value={draft.level} onChange={setLevel} options={LEVELS.map((l) => ({ value: l, label: LEVEL_NAMES[l], testId: `level-${l}` }))} />
        <p className="muted member-content__hint" id="member-content-tighter">
          Each area can be the same as the level or tighter. Looser choices are not offered.
        </p>
        {AREAS.map((a) => {
          const id = `member-content-${a}`;
          return (
            <div className="field" key={a}>
              <label htmlFor={id} className="field__label">
                {AREA_NAMES[a]}
              </label>
              <select
                id={id}
                className="input"
                aria-describedby="member-content-tighter"
                value={draft[a] ?? ''}
                onChange={(e) => {
                  setError(null);
                  setDraft((d) => ({ ...d, [a]: e.target.value === '' ? null : (e.target.value as Level) }));
                }}
              >
                <option value="">Same as the level ({WORDS[a][draft.level]})</option>
                {LEVELS.map((l) => (
                  <option key={l} value={l} disabled={rank(l) > rank(draft.level)}>
                    {LEVEL_NAMES[l]}: {WORDS[a][l]}
                    {rank(l) > rank(draft.level) ? ' (looser than the level)' : ''}
                  </option>
                ))}
              </select>
            </div>
          );
        })}
        <FormError message={error} />
        <div className="member-content__actions">
          <button type="submit" className="btn btn--primary" disabled={save.isPending}>
            {save.isPending ? <Spinner size={20} /> : null}
            Save
          </button>
        </div>
      </div>
      <Summary draft={draft} />
    </form>
  );
}
