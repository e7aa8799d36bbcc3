// Home: the person's Today canvas (their layout, else the household default), the header items
// they picked, and an edit mode. A home screen an admin has locked has no Edit button. The layout
// is read again when the tab comes back into view (an admin may have changed or locked it), except
// while it is being edited (home/queries.ts).
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { useUser } from '../../app/session';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { useTools } from '../apps';
import { AdoptedModels } from './AdoptedModels';
import { FailedDownloads } from './FailedDownloads';
import { FinishSettingUp } from './FinishSettingUp';
import { LayoutEditor } from './LayoutEditor';
import { useMyLayout, useSaveMyLayout } from './queries';
import { HomeCanvas, visibleRows } from './widgets';
import './home.css';

export const DEFAULT_LAYOUT_HREF = '/home/default';

function greeting(hour: number): string {
  if (hour < 5) return 'Good night';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export function HomePage(): ReactElement {
  const user = useUser();
  const [editing, setEditing] = useState(false);
  const res = useMyLayout({ editing });
  const save = useSaveMyLayout();
  const toast = useToast();
  // only the refusal stays on the page (the layout was locked meanwhile); a save is a toast
  const [notice, setNotice] = useState<string | null>(null);
  const reload = () => void res.refetch();

  const data = res.data;
  const locked = data?.locked ?? false;
  const { isVisible } = useTools();
  const hasWidgets = data ? visibleRows(data.layout, isVisible, user.role === 'admin').length > 0 : false;

  return (
    <section className="page home" aria-labelledby="home-title">
      <div className="page__head">
        <h1 id="home-title" className="page__title">
          {greeting(new Date().getHours())}, <span data-testid="home-name">{user.name}</span>
        </h1>
        {data && !locked && !editing ? (
          <button
            type="button"
            className="btn btn--secondary btn--compact"
            onClick={() => {
              setNotice(null);
              setEditing(true);
            }}
          >
            <Icon name="edit" size={20} />
            Edit home
          </button>
        ) : null}
      </div>

      <p className="notice" role="status" aria-live="polite">
        {notice ?? ''}
      </p>

      {user.role === 'admin' && !editing ? (
        <>
          <FinishSettingUp />
          <AdoptedModels />
          <FailedDownloads />
        </>
      ) : null}

      {data && locked ? (
        <p className="home__locked muted" data-testid="home-locked">
          <Icon name="lock" size={18} /> An admin has set up your home screen.
        </p>
      ) : null}

      {!data && res.isPending ? <LoadingState label="Loading your home screen…" /> : null}
      {!data && res.isError ? <ErrorState title="Your home screen did not load" error={res.error} onRetry={reload} /> : null}

      {data && editing ? (
        <>
          {user.role === 'admin' ? (
            <p className="muted">
              This changes your own home screen. To change what everyone starts with, edit the <Link to={DEFAULT_LAYOUT_HREF}>household default</Link>.
            </p>
          ) : null}
          <LayoutEditor
            label="Edit your home screen"
            initial={data.layout}
            onCancel={() => setEditing(false)}
            onSave={async (layout) => {
              try {
                await save.mutateAsync(layout);
                setEditing(false);
                toast('Saved your home screen.');
              } catch (err) {
                if (err instanceof ApiError && err.code === 'layout_locked') {
                  setEditing(false);
                  setNotice(err.message);
                  return; // the layout is read again: it is locked now
                }
                throw err;
              }
            }}
          />
        </>
      ) : null}

      {data && !editing ? (
        <>
          {hasWidgets ? (
            <HomeCanvas layout={data.layout} />
          ) : (
            <EmptyState
              title="Nothing on your home screen yet"
              action={
                locked ? null : (
                  <button type="button" className="btn btn--primary" onClick={() => setEditing(true)}>
                    <Icon name="plus" size={20} />
                    Add widgets
                  </button>
                )
              }
            >
              {locked ? 'An admin looks after your home screen; ask them to add something.' : 'Add widgets for the apps you use most.'}
            </EmptyState>
          )}
        </>
      ) : null}
    </section>
  );
}
