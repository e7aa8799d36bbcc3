// My pictures: the member's own finished pictures (nobody else's, admins' included), newest first,
// as a grid of tiles (three across on a phone), filtered by Created or Edited; a clip plays in its
// tile and is marked Clip. A tile opens the picture large (a clip plays there) with Download, Edit,
// Animate when this engine can bring a picture to life, and Delete (asks first). Empty, loading and error states say
// what would be here and what to do; one sentence says when adult pictures are hidden (adult content off).
import { useState, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { Dialog } from '../../ui/Dialog';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { ArtifactView, ImageSubnav, PictureActions } from './parts';
import { useHistory, useImageStatus } from './queries';
import { artifactTitle, CREATE_HREF, isClip, KIND_TEXT, type Artifact, type ArtifactKind } from './types';
import './image.css';

const KINDS: readonly (ArtifactKind | null)[] = [null, 'generated', 'edited'];

function asKind(v: string | null): ArtifactKind | null {
  return v === 'generated' || v === 'edited' ? v : null;
}

export function HistoryPage(): ReactElement {
  const [params, setParams] = useSearchParams();
  const kind = asKind(params.get('kind'));
  const history = useHistory(kind);
  // whether a picture can be brought to life here (Animate is offered only then)
  const status = useImageStatus();
  const [open, setOpen] = useState<Artifact | null>(null);
  const items = history.data?.pages.flatMap((p) => p.items) ?? [];
  // adult pictures left out while adult content is off (issue 32): said in one sentence, never which
  const hidden = (history.data?.pages[0]?.hiddenByContent ?? 0) > 0;

  const setKind = (k: ArtifactKind | null) => {
    const next = new URLSearchParams(params);
    if (k) next.set('kind', k);
    else next.delete('kind');
    setParams(next, { replace: true });
  };

  return (
    <section className="page img-page" aria-labelledby="img-history-title">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="img-history-title" className="page__title">
            My pictures
          </h1>
          <p className="muted page__description">Everything you created or edited. Only you can see these.</p>
        </div>
      </div>
      <ImageSubnav />

      <div className="img-chips" role="group" aria-label="Show">
        {KINDS.map((k) => (
          <button key={k ?? 'all'} type="button" className="img-chip" aria-pressed={kind === k} onClick={() => setKind(k)}>
            {k ? KIND_TEXT[k] : 'All'}
          </button>
        ))}
      </div>

      {hidden ? (
        <p className="muted" data-testid="history-hidden">
          Some pictures are hidden by your content settings. <Link to="/profile">Your content settings</Link>
        </p>
      ) : null}
      {!history.data ? (
        history.error ? (
          <ErrorState title="Your pictures did not load" error={history.error} onRetry={() => void history.refetch()} />
        ) : (
          <LoadingState label="Loading your pictures…" />
        )
      ) : items.length === 0 ? (
        kind ? (
          <EmptyState title={kind === 'edited' ? 'No edited pictures yet' : 'No created pictures yet'} action={<button type="button" className="btn btn--secondary" onClick={() => setKind(null)}>Show all</button>}>
            {kind === 'edited' ? 'Pictures you edit show up here.' : 'Pictures you create show up here.'}
          </EmptyState>
        ) : (
          <EmptyState
            title="No pictures yet"
            icon="sparkles"
            action={
              <Link className="btn btn--primary" to={CREATE_HREF}>
                <Icon name="sparkles" size={20} />
                Create a picture
              </Link>
            }
          >
            Describe something and Hearth draws it. Everything you make is kept here, just for you.
          </EmptyState>
        )
      ) : (
        <>
          {history.error ? (
            <p className="banner banner--warn" role="status">
              <Icon name="warn" size={22} />
              <span>Could not refresh: {errorMessage(history.error)}</span>
            </p>
          ) : null}
          <ul className="img-grid" aria-label="Your pictures" data-testid="history-grid">
            {items.map((a) => (
              <li key={a.id}>
                <button type="button" className="img-tile" onClick={() => setOpen(a)} aria-label={`Open ${isClip(a) ? 'clip ' : ''}${artifactTitle(a)}`}>
                  <img src={a.url} alt="" loading="lazy" />
                  {isClip(a) ? <span className="img-tile__badge">Clip</span> : a.kind === 'edited' ? <span className="img-tile__badge">Edited</span> : null}
                </button>
              </li>
            ))}
          </ul>
          {history.hasNextPage ? (
            <div className="actions">
              <button type="button" className="btn btn--secondary" disabled={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                {history.isFetchingNextPage ? 'Loading…' : 'Show more'}
              </button>
            </div>
          ) : null}
        </>
      )}

      <Dialog open={open !== null} title={open ? artifactTitle(open) : 'Picture'} onClose={() => setOpen(null)} testId="picture-dialog">
        {open ? (
          <ArtifactView artifact={open} onDeleted={() => setOpen(null)}>
            <PictureActions artifact={open} status={status.data} />
          </ArtifactView>
        ) : null}
      </Dialog>
    </section>
  );
}
