// Admin: the household's default home screen, which everyone sees until they arrange their own
// (members who already have their own layout keep it).
import { useState, type ReactElement } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../ui/icons';
import { ErrorState, LoadingState } from '../../ui/StateViews';
import { useToast } from '../../ui/Toast';
import { LayoutEditor } from './LayoutEditor';
import { LayoutPreview } from './LayoutPreview';
import { useDefaultLayout, useSaveDefaultLayout } from './queries';
import './home.css';

export function DefaultLayoutPage(): ReactElement {
  const res = useDefaultLayout();
  const save = useSaveDefaultLayout();
  const [editing, setEditing] = useState(false);
  const toast = useToast();
  const data = res.data;

  return (
    <section className="page" aria-labelledby="default-title">
      <Link to="/members" className="btn btn--ghost btn--compact page__back">
        <Icon name="back" size={20} />
        Members
      </Link>
      <div className="page__head">
        <div>
          <h1 id="default-title" className="page__title">
            Default home screen
          </h1>
          <p className="muted">What everyone sees until they arrange their own. Members who already have their own home screen keep it.</p>
        </div>
        {data && !editing ? (
          <button
            type="button"
            className="btn btn--primary btn--compact"
            onClick={() => setEditing(true)}
          >
            <Icon name="edit" size={20} />
            Edit default
          </button>
        ) : null}
      </div>

      {!data && res.isPending ? <LoadingState label="Loading the default home screen…" /> : null}
      {!data && res.isError ? <ErrorState title="The default did not load" error={res.error} onRetry={() => void res.refetch()} /> : null}
      {data && editing ? (
        <LayoutEditor
          label="Edit the default home screen"
          saveLabel="Save default"
          initial={data.layout}
          onCancel={() => setEditing(false)}
          onSave={async (layout) => {
            await save.mutateAsync(layout);
            setEditing(false);
            toast('Saved the default home screen.');
          }}
        />
      ) : null}
      {data && !editing ? <LayoutPreview layout={data.layout} label="Preview of the default home screen" /> : null}
    </section>
  );
}
