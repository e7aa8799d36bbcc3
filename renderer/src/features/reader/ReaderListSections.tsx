// Sections of ReaderListPage.tsx (ReaderListPage), each drawn by the page.
import { lazy, type ReactElement } from 'react';
import { errorMessage } from '../../api/client';
import { Icon } from '../../ui/icons';
import { LoadingState } from '../../ui/StateViews';
import { CollectionMark } from './parts';
import { type ReaderCollection } from './types';


// the Add, Collections and Import / export dialogs are fetched when first opened, not with the list
export const AddLinkDialog = lazy(() => import('./AddLinkDialog').then((m) => ({ default: m.AddLinkDialog })));
export const CollectionsDialog = lazy(() => import('./CollectionsDialog').then((m) => ({ default: m.CollectionsDialog })));
export const ImportExportDialog = lazy(() => import('./ImportExportDialog').then((m) => ({ default: m.ImportExportDialog })));

export const READER_ADMIN_HREF = '/admin/reader';
export const PAGE = 60;
/** The cards drawn with the first screen; the rest follow while the browser is idle (ui/useDrawnInSteps). */
export const FIRST_CARDS = 20;
/** The most the list asks for at once (the server's cap). */
export const MAX_LIMIT = 200;
export const VIEWS = ['list', 'grid'] as const;

export function CollectionsNav({
  collections,
  error,
  onRetry,
  total,
  active,
  onPick,
  onManage,
}: {
  collections: ReaderCollection[] | undefined;
  error: unknown;
  onRetry: () => void;
  total: number | undefined;
  active: string | null;
  onPick: (id: string | null) => void;
  onManage: () => void;
}): ReactElement {
  return (
    <div className="reader-collections">
      <h2 className="reader-collections__title">Collections</h2>
      {!collections ? (
        error ? (
          <div role="alert">
            <p className="job__error">Collections did not load: {errorMessage(error)}</p>
            <button type="button" className="btn btn--ghost btn--compact" onClick={onRetry}>
              <Icon name="refresh" size={18} />
              Try again
            </button>
          </div>
        ) : (
          <LoadingState label="Loading collections…" />
        )
      ) : (
        <ul className="reader-collections__list">
          <li>
            <button type="button" className="reader-collection" aria-pressed={!active} onClick={() => onPick(null)}>
              <Icon name="bookmark" size={20} />
              <span className="reader-collection__name">Everything</span>
              {total !== undefined ? <span className="reader-collection__count">{total}</span> : null}
            </button>
          </li>
          {collections.map((c) => (
            <li key={c.id}>
              <button type="button" className="reader-collection" aria-pressed={active === c.id} onClick={() => onPick(c.id)}>
                <CollectionMark collection={c} />
                <span className="reader-collection__name">{c.name}</span>
                <span className="reader-collection__count" aria-label={`${c.itemCount} items`}>
                  {c.itemCount}
                </span>
              </button>
            </li>
          ))}
          {collections.length === 0 ? <li className="muted reader-collections__empty">No collections yet. Add one when you save a link.</li> : null}
        </ul>
      )}
      <button type="button" className="btn btn--ghost btn--compact reader-collections__manage" onClick={onManage}>
        <Icon name="edit" size={18} />
        Collections and tags
      </button>
    </div>
  );
}
