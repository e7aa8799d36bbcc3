// Reader: the household's read-later library. Own items plus the household links admins share, as a
// list or a grid (remembered on this device), filtered by status, type, collection and tag, searched
// as you type. Collections sit in a sidebar (a sheet on phones). Items still being saved show a
// spinner and the list is read again every 2 s until none is (queries.ts); a failed save shows why,
// with Retry.
import { Suspense, useState, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { useUser } from '../../app/session';
import { Icon } from '../../ui/icons';
import { Sheet } from '../../ui/Sheet';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { useDrawnInSteps } from '../../ui/useDrawnInSteps';
import { useDebounced, useStoredChoice } from '../../ui/hooks';
import { useSearchInAddress } from '../../ui/useSearchInAddress';
import { ItemCard } from './parts';
import './reader.css';
import { useCollections, useHideItem, useReaderItems, useRearchive, useTags } from './queries';
import { asStatus, asType, saveNotice, STATUS_TEXT, type ReaderItem } from './types';
import { CardLayoutSwitch } from '../../ui/CardLayoutSwitch';
import { CardList } from '../../ui/CardList';
import { SearchField } from '../../ui/SearchField';
import { OfflineNotice } from '../connectivity';
import { SegmentedControl } from '../../ui/SegmentedControl';

import { AddLinkDialog, CollectionsDialog, ImportExportDialog, READER_ADMIN_HREF, PAGE, FIRST_CARDS, MAX_LIMIT, VIEWS, CollectionsNav } from './ReaderListSections';

export function ReaderListPage(): ReactElement {
  const user = useUser();
  const [params, setParams] = useSearchParams();
  const status = asStatus(params.get('status'));
  const type = asType(params.get('type'));
  const collectionId = params.get('collection');
  const tag = params.get('tag');
  const [query, setQuery] = useState(params.get('q') ?? '');
  const q = useDebounced(query.trim(), 200);
  const [view, setView] = useStoredChoice('hearth.reader.view', VIEWS, 'list');
  const [showHidden, setShowHidden] = useStoredChoice('hearth.reader.hidden', ['show', 'hide'] as const, 'hide');
  const [limit, setLimit] = useState(PAGE);
  const [sheet, setSheet] = useState<null | 'add' | 'filters' | 'manage' | 'import'>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rearchive = useRearchive();
  const hideItem = useHideItem();
  // the link just added: what the banner says follows its capture (saving, ready or failed), so a
  // failed copy is never announced as saved
  const [justSaved, setJustSaved] = useState<ReaderItem | null>(null);

  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
    setLimit(PAGE);
  };

  // the search is kept in the address too, so Back from an article comes back to it
  useSearchInAddress(q);

  // the link just added is followed (read again while it is being saved) even where these filters
  // do not show it, so its banner can say how the save ended
  const items = useReaderItems({ status, type, collectionId, tag, q, limit }, justSaved);
  const collections = useCollections();
  const tags = useTags();

  const all = items.data?.items ?? [];
  const shown = showHidden === 'show' ? all : all.filter((i) => !i.isHidden);
  const hiddenCount = all.length - all.filter((i) => !i.isHidden).length;
  const drawn = useDrawnInSteps(shown.length, FIRST_CARDS, [status, type, collectionId, tag, q, view].join('|'));
  const savedRow = justSaved ? all.find((i) => i.id === justSaved.id) : undefined;
  const savedNow = justSaved ? (savedRow ?? justSaved) : null;
  const saved = savedNow ? saveNotice(savedNow) : null;

  const retry = (item: ReaderItem) => {
    setJustSaved(null);
    setNotice(null);
    hideItem.reset();
    rearchive.mutate(item.id, { onSuccess: () => setNotice('Trying to save it again.') });
  };
  const hide = (item: ReaderItem, hidden: boolean) => {
    setJustSaved(null);
    setNotice(null);
    rearchive.reset();
    hideItem.mutate(
      { id: item.id, hidden },
      { onSuccess: () => setNotice(hidden ? 'Hidden from your Reader. Turn on “Show hidden” to see it again.' : 'Shown in your Reader again.') },
    );
  };
  const busyId = rearchive.isPending ? rearchive.variables : hideItem.isPending ? hideItem.variables.id : null;
  const actionError = rearchive.error ?? hideItem.error;

  const collectionName = collections.data?.find((c) => c.id === collectionId)?.name;
  const filtering = Boolean(status || type || collectionId || tag || q);
  const clearFilters = () => {
    setQuery('');
    setParams(new URLSearchParams(), { replace: true });
  };

  const sidebar = (
    <CollectionsNav
      collections={collections.data}
      error={collections.error}
      onRetry={() => void collections.refetch()}
      total={filtering ? undefined : items.data?.total}
      active={collectionId}
      onPick={(id) => {
        setParam('collection', id);
        setSheet(null);
      }}
      onManage={() => setSheet('manage')}
    />
  );

  // what is chosen in the Filters sheet, shown above the list as chips that remove themselves
  const chips: Array<{ key: string; label: string }> = [
    ...(status ? [{ key: 'status', label: STATUS_TEXT[status] }] : []),
    ...(type ? [{ key: 'type', label: type === 'offline' ? 'Saved offline' : 'Live links' }] : []),
    ...(collectionId ? [{ key: 'collection', label: collectionName ?? 'Collection' }] : []),
    ...(tag ? [{ key: 'tag', label: `#${tag}` }] : []),
  ];
  const empty = items.data !== undefined && items.data.total === 0 && !filtering;

  return (
    <section className="page reader" aria-labelledby="reader-title">
      <div className="reader__head">
        <h1 id="reader-title" className="page__title">
          Reader
        </h1>
        <div className="reader__actions">
          <button type="button" className="btn btn--primary btn--compact" onClick={() => setSheet('add')}>
            <Icon name="plus" size={20} />
            Add link
          </button>
          <button type="button" className="btn btn--ghost btn--icon" onClick={() => setSheet('import')} aria-label="Import / export" title="Import / export">
            <Icon name="upload" size={20} />
          </button>
          {user.role === 'admin' ? (
            <Link to={READER_ADMIN_HREF} className="btn btn--ghost btn--icon" aria-label="Household links" title="Household links">
              <Icon name="sliders" size={20} />
            </Link>
          ) : null}
        </div>
      </div>
      <OfflineNotice what="Saved pages open as before; new web pages are not fetched until Hearth is online again." />

      <p className={`notice${!notice && saved?.failed ? ' notice--warn' : ''}`} role="status" aria-live="polite" data-testid="reader-notice">
        {notice ?? saved?.text ?? ''}
      </p>
      <FormError message={actionError ? errorMessage(actionError) : null} />

      {/* until the first answer: one neutral loading state, so an empty Reader never flashes the
          filter layout before its empty state (later answers keep the list on screen) */}
      {!items.data ? (
        items.error ? (
          <ErrorState title="Your Reader did not load" error={items.error} onRetry={() => void items.refetch()} />
        ) : (
          <LoadingState label="Loading your Reader…" />
        )
      ) : empty ? (
        <EmptyState
          title="Nothing saved yet"
          action={
            <div className="actions reader__empty-actions">
              <button type="button" className="btn btn--primary" onClick={() => setSheet('add')}>
                <Icon name="plus" size={20} />
                Add your first link
              </button>
              <button type="button" className="btn btn--secondary" onClick={() => setSheet('import')}>
                <Icon name="upload" size={20} />
                Import bookmarks
              </button>
            </div>
          }
        >
          Save an article to read it later, even without internet, or keep a link to a site you use often.
        </EmptyState>
      ) : (
        <div className="reader__layout">
          <aside className="reader__aside" aria-label="Collections">
            {sidebar}
          </aside>

          <div className="reader__main">
            <div className="reader__toolbar">
              <SearchField
                id="reader-search"
                className="reader__search"
                label="Search your Reader"
                placeholder="Search your Reader"
                value={query}
                onChange={(value) => {
                  setQuery(value);
                  setLimit(PAGE);
                }}
              />
              <button type="button" className="btn btn--secondary btn--compact reader__filters-btn" aria-haspopup="dialog" onClick={() => setSheet('filters')}>
                <Icon name="sliders" size={20} />
                Filters{chips.length ? ` (${chips.length})` : ''}
              </button>
            </div>

            {chips.length ? (
              <ul className="reader-tags reader__chips" aria-label="Active filters">
                {chips.map((c) => (
                  <li key={c.key}>
                    <button type="button" className="reader-chip reader-chip--active" aria-label={`Remove filter: ${c.label}`} onClick={() => setParam(c.key, null)}>
                      {c.label}
                      <Icon name="close" size={14} />
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
            {/* only when there is something hidden to show (or it is on): otherwise it is noise on a phone */}
            {hiddenCount > 0 || showHidden === 'show' ? (
              <label className="switch reader__hidden-toggle">
                <input className="switch__input" type="checkbox" checked={showHidden === 'show'} onChange={(e) => setShowHidden(e.target.checked ? 'show' : 'hide')} />
                <span className="switch__track" aria-hidden="true" />
                <span className="switch__text">Show hidden household links{hiddenCount ? ` (${hiddenCount})` : ''}</span>
              </label>
            ) : null}

            {shown.length === 0 ? (
              <EmptyState title="Nothing matches" action={filtering ? <button type="button" className="btn btn--secondary" onClick={clearFilters}>Clear filters</button> : undefined}>
                {q ? `Nothing you saved mentions “${q}”.` : filtering ? 'No saved links match these filters.' : 'Everything here is hidden.'}
              </EmptyState>
            ) : (
              <>
                {items.error ? (
                  <p className="banner banner--warn" role="status">
                    <Icon name="warn" size={22} />
                    <span>Could not refresh: {errorMessage(items.error)}</span>
                  </p>
                ) : null}
                <CardList view={view} className="reader-list" testId="reader-list">
                  {shown.slice(0, drawn).map((item) => (
                    <ItemCard
                      key={item.id}
                      item={item}
                      view={view}
                      activeTag={tag}
                      onTag={(t) => setParam('tag', tag?.toLowerCase() === t.toLowerCase() ? null : t)}
                      onRetry={(i) => void retry(i)}
                      onHide={(i, h) => void hide(i, h)}
                      busy={busyId === item.id}
                    />
                  ))}
                </CardList>
                {items.data.total > all.length ? (
                  <div className="actions reader__more">
                    <p className="muted">
                      Showing {all.length} of {items.data.total}
                      {limit >= MAX_LIMIT ? '. Search or filter to find older ones.' : ''}
                    </p>
                    {limit < MAX_LIMIT ? (
                      <button type="button" className="btn btn--secondary" onClick={() => setLimit((n) => Math.min(MAX_LIMIT, n + PAGE))}>
                        Show more
                      </button>
                    ) : null}
                  </div>
                ) : null}
              </>
            )}
          </div>
        </div>
      )}

      <Sheet
        open={sheet === 'filters'}
        title="Filters"
        onClose={() => setSheet(null)}
        testId="reader-filters"
        footer={
          <>
            <button type="button" className="btn btn--ghost" onClick={clearFilters} disabled={!chips.length}>
              Clear filters
            </button>
            <button type="button" className="btn btn--primary" onClick={() => setSheet(null)}>
              Show results
            </button>
          </>
        }
      >
        <div className="reader-filters">
          <SegmentedControl
            label="Status"
            value={status}
            onChange={(st) => setParam('status', st)}
            options={([null, 'unread', 'reading', 'archived'] as const).map((st) => ({ value: st, label: st === null ? 'All' : STATUS_TEXT[st] }))}
          />
          <div className="field">
            <label className="field__label" htmlFor="reader-type">
              Type
            </label>
            <select id="reader-type" className="input" value={type ?? ''} onChange={(e) => setParam('type', e.target.value || null)}>
              <option value="">Any type</option>
              <option value="offline">Saved offline</option>
              <option value="live">Live links</option>
            </select>
          </div>
          {tags.data && tags.data.length > 0 ? (
            <div className="field">
              <p className="field__label">Tags</p>
              <ul className="reader-tags reader-tags--filter" aria-label="Filter by tag">
                {tags.data.map((t) => (
                  <li key={t.id}>
                    <button
                      type="button"
                      className="reader-chip"
                      aria-pressed={tag?.toLowerCase() === t.name.toLowerCase()}
                      onClick={() => setParam('tag', tag?.toLowerCase() === t.name.toLowerCase() ? null : t.name)}
                    >
                      #{t.name} <span className="reader-chip__count">{t.itemCount}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="field">
            <p className="field__label">Show as</p>
            <CardLayoutSwitch label="Layout" value={view} onChange={setView} />
          </div>
          {sidebar}
        </div>
      </Sheet>
      <Suspense fallback={null}>
        {sheet === 'add' ? (
          <AddLinkDialog
            collections={collections.data ?? []}
            onClose={() => setSheet(null)}
            onSaved={(item) => {
              setSheet(null);
              setJustSaved(item);
            }}
          />
        ) : null}
        {sheet === 'manage' ? (
          <CollectionsDialog
            collections={collections.data}
            tags={tags.data}
            onClose={() => setSheet(null)}
            onPickTag={(t) => {
              setParam('tag', t);
              setSheet(null);
            }}
          />
        ) : null}
        {sheet === 'import' ? <ImportExportDialog onClose={() => setSheet(null)} /> : null}
      </Suspense>
    </section>
  );
}
