// Admin: the household's members. Add, edit (rename, new PIN, role) and remove, with the server's
// own messages (name_taken, last_admin…) shown where the action happened. A member locked out by
// wrong PINs shows it, with an Unlock button. Each member's home screen (and the household default)
// is looked after from here too. Row actions are buttons with visible words (on a line of their own
// under the name on phones) whose accessible names carry the member's name; long names are
// shortened with an ellipsis and shown whole on hover and focus.
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import type { AdminUser, PublicUser } from '../../api/types';
import { useSession, useUser } from '../../app/session';
import { Avatar } from '../../ui/Avatar';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Dialog } from '../../ui/Dialog';
import { IconButton } from '../../ui/IconButton';
import { Icon } from '../../ui/icons';
import { Name } from '../../ui/Name';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { forgetMemberDraft, MemberForm } from './MemberForm';
import { useMembers, useRemoveMember, useUnlockMember } from './queries';
import { fmt } from '../../ui/locale';

type Editing = { mode: 'add' } | { mode: 'edit'; member: PublicUser } | null;

export function MembersPage(): ReactElement {
  const me = useUser();
  const { updateUser, forget } = useSession();
  const users = useMembers();
  const unlockMember = useUnlockMember();
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<PublicUser | null>(null);
  const toast = useToast();
  // what went wrong stays on the page, beside the list; what went right is a toast
  const [problem, setProblem] = useState<string | null>(null);

  const list = users.data ?? [];

  const saved = (user: PublicUser, mode: 'add' | 'edit') => {
    setEditing(null);
    toast(mode === 'add' ? `Added ${user.name}.` : 'Saved.');
    if (user.id === me.id) updateUser(user); // e.g. renamed yourself or gave up admin
  };

  const unlock = async (user: AdminUser) => {
    setProblem(null);
    try {
      await unlockMember.mutateAsync(user.id);
      toast(`Unlocked ${user.name}. They can sign in again on every device.`);
    } catch (err) {
      setProblem(`${user.name} was not unlocked: ${errorMessage(err)}`);
    }
  };

  // closing the form on purpose drops its draft (a session ending does not: the draft is for that)
  const dismiss = () => {
    if (editing) forgetMemberDraft(me.id, editing.mode === 'edit' ? editing.member : null);
    setEditing(null);
  };

  const removed = (user: PublicUser) => {
    setRemoving(null);
    if (user.id === me.id) {
      forget(); // your session went with your profile
      return;
    }
    toast(`Removed ${user.name}.`);
  };

  return (
    <section className="page" aria-labelledby="members-title">
      <PageHeader
        titleId="members-title"
        title="Household members"
        description="Everyone here has a profile and a PIN. Admins can also manage members."
        actions={
          <>
            <Link to="/home/default" className="btn btn--secondary">
              <Icon name="home" size={20} />
              Default home screen
            </Link>
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => {
                setProblem(null);
                setEditing({ mode: 'add' });
              }}
            >
              <Icon name="plus" size={20} />
              Add member
            </button>
          </>
        }
      />

      <FormError message={problem} />

      {users.isPending ? (
        <LoadingState label="Loading members…" />
      ) : users.isError && !users.data ? (
        <ErrorState title="Members did not load" error={users.error} onRetry={() => void users.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState title="No members yet">Add the people in your household so each gets their own profile.</EmptyState>
      ) : (
        <ul className="member-list" aria-label="Members" data-testid="member-list">
          {list.map((u) => (
            <li key={u.id} className="member">
              <Avatar id={u.id} name={u.name} avatar={u.avatar} />
              <div className="member__who">
                <span className="member__name-line">
                  <Name className="member__name">{u.name}</Name>
                  {u.id === me.id ? <span className="muted member__you"> (you)</span> : null}
                </span>
                <span className={`badge badge--${u.role}`}>{u.role === 'admin' ? 'Admin' : 'Member'}</span>
              </div>
              <div className="member__actions">
                <IconButton icon="home" label="Home screen" accessibleLabel={`Home screen of ${u.name}`} labelShown="always" to={`/members/${encodeURIComponent(u.id)}/home`} />
                <IconButton icon="shield" label="Content and safety" accessibleLabel={`Content and safety of ${u.name}`} labelShown="always" to={`/members/${encodeURIComponent(u.id)}/content`} />
                <IconButton
                  icon="edit"
                  label="Edit"
                  accessibleLabel={`Edit ${u.name}`}
                  labelShown="always"
                  onClick={() => {
                    setProblem(null);
                    setEditing({ mode: 'edit', member: u });
                  }}
                />
                <IconButton
                  icon="trash"
                  label="Remove"
                  accessibleLabel={`Remove ${u.name}`}
                  labelShown="always"
                  tone="danger-ghost"
                  onClick={() => {
                    setProblem(null);
                    setRemoving(u);
                  }}
                />
              </div>
              {isLocked(u) ? (
                <div className="member__lock" data-testid="member-locked">
                  <span className="badge badge--warn">
                    <Icon name="lock" size={16} />
                    Locked until {formatTime(u.lockedUntil!)}
                  </span>
                  <button
                    type="button"
                    className="btn btn--secondary btn--compact"
                    aria-label={`Unlock ${u.name}`}
                    disabled={unlockMember.isPending && unlockMember.variables === u.id}
                    onClick={() => void unlock(u)}
                  >
                    Unlock
                  </button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={editing !== null}
        title={editing?.mode === 'edit' ? `Edit ${editing.member.name}` : 'Add a household member'}
        onClose={dismiss}
        testId="member-dialog"
      >
        {editing ? (
          <MemberForm
            key={editing.mode === 'edit' ? editing.member.id : 'new'}
            member={editing.mode === 'edit' ? editing.member : null}
            isSelf={editing.mode === 'edit' && editing.member.id === me.id}
            onCancel={dismiss}
            onSaved={(u) => saved(u, editing.mode)}
          />
        ) : null}
      </Dialog>

      <RemoveDialog member={removing} isSelf={removing?.id === me.id} onClose={() => setRemoving(null)} onRemoved={removed} />
    </section>
  );
}

/** Locked out by wrong PINs on some device, as of now. */
function isLocked(u: AdminUser): boolean {
  return u.lockedUntil !== null && new Date(u.lockedUntil).getTime() > Date.now();
}

/** "14:35", in the viewer's own clock. */
function formatTime(iso: string): string {
  return fmt().time(iso);
}

function RemoveDialog({
  member,
  isSelf,
  onClose,
  onRemoved,
}: {
  member: PublicUser | null;
  isSelf: boolean;
  onClose: () => void;
  onRemoved: (u: PublicUser) => void;
}): ReactElement {
  const remove = useRemoveMember();
  return (
    <ConfirmDialog
      open={member !== null}
      title={member ? `Remove ${member.name}?` : 'Remove'}
      onClose={onClose}
      testId="remove-dialog"
      description={
        <>
          Their profile and everything that belongs to them will be deleted. This cannot be undone.
          {isSelf ? ' This is you: you will be signed out.' : ''}
        </>
      }
      cancelLabel="Cancel"
      confirmLabel="Remove"
      onConfirm={async () => {
        if (!member) return;
        await remove.mutateAsync(member.id);
        onRemoved(member);
      }}
    />
  );
}
