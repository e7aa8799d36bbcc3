// Admin: one member's home screen. See it as they do, lock it (no Edit button for them), arrange it
// for them, or put them back on the household default.
import { useState, type ReactElement } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Icon, Spinner } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import type { LayoutResponse } from '../../../../server/modules/home-layout/schema.js';
import { DEFAULT_LAYOUT_HREF } from './HomePage';
import { LayoutEditor } from './LayoutEditor';
import { LayoutPreview } from './LayoutPreview';
import { useMembers } from '../members';
import { useMemberLayout, useSetMemberLayout } from './queries';
import './home.css';

export function MemberLayoutPage(): ReactElement {
  const { userId = '' } = useParams();
  const me = useUser();
  const users = useMembers();
  const res = useMemberLayout(userId);
  const change = useSetMemberLayout(userId);
  const [editing, setEditing] = useState(false);
  const [resetting, setResetting] = useState(false);
  const [lockError, setLockError] = useState<string | null>(null);
  const toast = useToast();

  const member = users.data?.find((u) => u.id === userId);
  const isMe = member?.id === me.id;
  const name = member ? (isMe ? 'Your' : `${member.name}’s`) : 'Member’s';
  const who = isMe ? 'you' : (member?.name ?? 'this member');
  const data = res.data;
  const lockBusy = change.isPending && change.variables.locked !== undefined; // the switch's own change, not a save
  const put = (body: { layout?: LayoutResponse['layout'] | null; locked?: boolean }) => change.mutateAsync(body);

  const setLocked = async (locked: boolean) => {
    setLockError(null);
    try {
      await put({ locked });
      toast(locked ? `Locked. Only admins can change this home screen now.` : `Unlocked. ${who === 'you' ? 'You' : who} can change it again.`);
    } catch (err) {
      setLockError(errorMessage(err));
    }
  };

  if (res.isError && res.error instanceof ApiError && res.error.status === 404) {
    return (
      <section className="page">
        <h1 className="page__title">Home screen</h1>
        <EmptyState
          title="That member does not exist"
          action={
            <Link to="/members" className="btn btn--secondary">
              Back to Members
            </Link>
          }
        />
      </section>
    );
  }

  return (
    <section className="page" aria-labelledby="member-home-title">
      <Link to="/members" className="btn btn--ghost btn--compact page__back">
        <Icon name="back" size={20} />
        Members
      </Link>
      <div className="page__head">
        <div>
          <h1 id="member-home-title" className="page__title">
            {name} home screen
          </h1>
          {data ? (
            <p className="muted" data-testid="member-layout-source">
              {data.custom ? `Arranged for ${who}.` : (
                <>
                  Uses the <Link to={DEFAULT_LAYOUT_HREF}>household default</Link>.
                </>
              )}
            </p>
          ) : null}
        </div>
      </div>

      {!data && res.isPending ? <LoadingState label="Loading the home screen…" /> : null}
      {!data && res.isError ? <ErrorState title="The home screen did not load" error={res.error} onRetry={() => void res.refetch()} /> : null}

      {data ? (
        <div className="card member-layout__controls">
          <label className="switch">
            <input
              type="checkbox"
              role="switch"
              className="switch__input"
              checked={data.locked}
              disabled={lockBusy}
              aria-describedby="lock-hint"
              onChange={(e) => void setLocked(e.target.checked)}
            />
            <span className="switch__track" aria-hidden="true" />
            <span className="switch__text">Lock this home screen</span>
            {lockBusy ? <Spinner size={18} /> : null}
          </label>
          <p id="lock-hint" className="muted member-layout__hint">
            {data.locked ? `Locked: ${isMe ? 'you have' : `${who} has`} no Edit button, and only admins can change it.` : `Unlocked: ${who} can arrange it.`}
          </p>
          <FormError message={lockError} />
          {!editing ? (
            <div className="actions member-layout__actions">
              <button
                type="button"
                className="btn btn--primary btn--compact"
                onClick={() => setEditing(true)}
              >
                <Icon name="edit" size={20} />
                Edit for {who}
              </button>
              {data.custom ? (
                <button type="button" className="btn btn--secondary btn--compact" onClick={() => setResetting(true)}>
                  <Icon name="refresh" size={20} />
                  Back to the default
                </button>
              ) : null}
            </div>
          ) : null}
        </div>
      ) : null}

      {data && editing ? (
        <LayoutEditor
          label={`Edit ${isMe ? 'your' : name} home screen`}
          saveLabel={`Save for ${who}`}
          initial={data.layout}
          onCancel={() => setEditing(false)}
          onSave={async (layout) => {
            await put({ layout });
            setEditing(false);
            toast(isMe ? 'Saved your home screen.' : `Saved ${member?.name ?? 'their'}’s home screen.`);
          }}
        />
      ) : null}
      {data && !editing ? <LayoutPreview layout={data.layout} label={`Preview of ${isMe ? 'your' : name} home screen`} /> : null}

      {resetting ? (
        <ResetDialog
          who={who}
          onClose={() => setResetting(false)}
          onReset={async () => {
            await put({ layout: null });
            setResetting(false);
            toast(`${isMe ? 'Your' : name} home screen is back to the household default.`);
          }}
        />
      ) : null}
    </section>
  );
}

function ResetDialog({ who, onClose, onReset }: { who: string; onClose: () => void; onReset: () => Promise<void> }): ReactElement {
  return (
    <ConfirmDialog
      open
      title="Back to the default?"
      description={`The home screen arranged for ${who} is replaced by the household default. The lock stays as it is.`}
      cancelLabel="Cancel"
      confirmLabel="Use the default"
      confirmIcon={null}
      tone="primary"
      onClose={onClose}
      onConfirm={onReset}
    />
  );
}
