// Reader: the household's read-later library. Own items plus the household links admins share, as a
// list or a grid (remembered on this device), filtered by status, type, collection and tag, searched
// as you type. Collections sit in a sidebar (a sheet on phones). Items still being saved show a
// spinner and the page polls every 2 s until none is; a failed save shows why, with Retry.
import { useEffect, useState, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, errorMessage } from '../../api/client';
import { useAction } from '../../api/useAction';
import { useResource } from '../../api/useResource';
import { useUser } from '../../app/session';
import { Dialog } from '../../ui/Dialog';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { AddLinkDialog } from './AddLinkDialog';
import { CollectionsDialog } from './CollectionsDialog';
import { useDebounced, usePoll, useStoredChoice } from './hooks';
import { ImportExportDialog } from './ImportExportDialog';
import { CollectionMark, ItemCard } from './parts';
import './reader.css';
import { asStatus, asType, isBusy, itemApi, saveNotice, type CollectionsResponse, type ItemListResponse, type ReaderCollection, type ReaderItem, type TagsResponse } from './types';

export const READER_ADMIN_HREF = '/admin/reader';
const PAGE = 60;
/** The most the list asks for at once (the server's cap). */
const MAX_LIMIT = 200;
const VIEWS = ['list', 'grid'] as const;

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
  const [sheet, setSheet] = useState<null | 'add' | 'collections' | 'manage' | 'import'>(null);
  const { busy: busyId, notice, error: actionError, act } = useAction(() => items.reload());
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
  useEffect(() => {
    if ((params.get('q') ?? '') === q) return;
    const next = new URLSearchParams(params);
    if (q) next.set('q', q);
    else next.delete('q');
    setParams(next, { replace: true });
  }, [q]); // only when the debounced search changes

  const listUrl = (() => {
    const s = new URLSearchParams();
    if (status) s.set('status', status);
    if (type) s.set('type', type);
    if (collectionId) s.set('collectionId', collectionId);
    if (tag) s.set('tag', tag);
    if (q) s.set('q', q);
    s.set('limit', String(limit));
    return `/api/reader?${s}`;
  })();
  const items = useResource((signal) => api.get<ItemListResponse>(listUrl, { signal }), [listUrl]);
  const collections = useResource((signal) => api.get<CollectionsResponse>('/api/reader/collections', { signal }).then((r) => r.collections));
  const tags = useResource((signal) => api.get<TagsResponse>('/api/reader/tags', { signal }).then((r) => r.tags));

  const all = items.data?.items ?? [];
  const shown = showHidden === 'show' ? all : all.filter((i) => !i.isHidden);
  const hiddenCount = all.length - all.filter((i) => !i.isHidden).length;
  usePoll(all.some(isBusy) || Boolean(justSaved && isBusy(justSaved) && !all.some((i) => i.id === justSaved.id)), items.reload);
  const savedNow = justSaved ? (all.find((i) => i.id === justSaved.id) ?? justSaved) : null;
  const saved = savedNow ? saveNotice(savedNow) : null;

  const refreshAll = () => {
    items.reload();
    collections.reload();
    tags.reload();
  };

  const retry = (item: ReaderItem) =>
    act(item.id, async () => {
      setJustSaved(null);
      await api.post(`${itemApi(item.id)}/rearchive`);
      return 'Trying to save it again.';
    });
  const hide = (item: ReaderItem, hidden: boolean) =>
    act(item.id, async () => {
      setJustSaved(null);
      const path = `/api/reader/hide/${encodeURIComponent(item.id)}`;
      if (hidden) await api.put(path, {});
      else await api.delete(path);
      return hidden ? 'Hidden from your Reader. Turn on “Show hidden” to see it again.' : 'Shown in your Reader again.';
    });

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
      onRetry={collections.reload}
      total={filtering ? undefined : items.data?.total}
      active={collectionId}
      onPick={(id) => {
        setParam('collection', id);
        setSheet(null);
      }}
      onManage={() => setSheet('manage')}
    />
  );

  return (
    <section className="page reader" aria-labelledby="reader-title">
      <div className="page__head">
        <div>
          <h1 id="reader-title" className="page__title">
            Reader
          </h1>
          <p className="muted">Links and articles to read later, saved on Hearth so they open even offline.</p>
        </div>
        <div className="page__actions reader__actions">
          <button type="button" className="btn btn--primary btn--compact" onClick={() => setSheet('add')}>
            <Icon name="plus" size={20} />
            Add link
          </button>
          <button type="button" className="btn btn--secondary btn--compact" onClick={() => setSheet('import')}>
            <Icon name="upload" size={20} />
            Import / export
          </button>
          {user.role === 'admin' ? (
            <Link to={READER_ADMIN_HREF} className="btn btn--ghost btn--compact">
              <Icon name="sliders" size={20} />
              Household links
            </Link>
          ) : null}
        </div>
      </div>

      <p className={`notice${!notice && saved?.failed ? ' notice--warn' : ''}`} role="status" aria-live="polite" data-testid="reader-notice">
        {notice ?? saved?.text ?? ''}
      </p>
      <FormError message={actionError?.message} />

      <div className="reader__layout">
        <aside className="reader__aside" aria-label="Collections">
          {sidebar}
        </aside>

        <div className="reader__main">
          <div className="reader__search">
            <label htmlFor="reader-search" className="visually-hidden">
              Search your Reader
            </label>
            <Icon name="search" size={20} className="reader__search-icon" />
            <input
              id="reader-search"
              className="input reader__search-input"
              type="search"
              placeholder="Search titles, text and addresses"
              value={query}
              onChange={(e) => {
                setQuery(e.target.value);
                setLimit(PAGE);
              }}
              enterKeyHint="search"
              autoComplete="off"
            />
          </div>

          <div className="reader__filters">
            <div className="segmented" role="group" aria-label="Status">
              {([null, 'unread', 'reading', 'archived'] as const).map((s) => (
                <button key={s ?? 'all'} type="button" className="segmented__btn" aria-pressed={status === s} onClick={() => setParam('status', s)}>
                  {s === null ? 'All' : s === 'unread' ? 'Unread' : s === 'reading' ? 'Reading' : 'Archived'}
                </button>
              ))}
            </div>
            <div className="reader__filter-row">
              <label className="visually-hidden" htmlFor="reader-type">
                Type
              </label>
              <select id="reader-type" className="input reader__select" value={type ?? ''} onChange={(e) => setParam('type', e.target.value || null)}>
                <option value="">Any type</option>
                <option value="offline">Saved offline</option>
                <option value="live">Live links</option>
              </select>
              <button type="button" className="btn btn--secondary btn--compact reader__collections-btn" onClick={() => setSheet('collections')}>
                <Icon name="folder" size={20} />
                <span>{collectionName ?? 'Collections'}</span>
              </button>
              <div className="segmented segmented--icons" role="group" aria-label="Layout">
                <button type="button" className="segmented__btn" aria-pressed={view === 'list'} aria-label="List" onClick={() => setView('list')}>
                  <Icon name="list" size={20} />
                </button>
                <button type="button" className="segmented__btn" aria-pressed={view === 'grid'} aria-label="Grid" onClick={() => setView('grid')}>
                  <Icon name="grid" size={20} />
                </button>
              </div>
            </div>
            {tags.data && tags.data.length > 0 ? (
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
            ) : null}
            {/* only when there is something hidden to show (or it is on): otherwise it is noise on a phone */}
            {hiddenCount > 0 || showHidden === 'show' ? (
              <label className="switch reader__hidden-toggle">
                <input
                  className="switch__input"
                  type="checkbox"
                  checked={showHidden === 'show'}
                  onChange={(e) => setShowHidden(e.target.checked ? 'show' : 'hide')}
                />
                <span className="switch__track" aria-hidden="true" />
                <span className="switch__text">Show hidden household links{hiddenCount ? ` (${hiddenCount})` : ''}</span>
              </label>
            ) : null}
          </div>

          {filtering ? (
            <p className="reader__filtering muted" data-testid="reader-filtering">
              {[
                q ? `Matching “${q}”` : null,
                status ? `status ${status}` : null,
                type ? (type === 'offline' ? 'saved offline' : 'live links') : null,
                collectionName ? `in ${collectionName}` : null,
                tag ? `tagged #${tag}` : null,
              ]
                .filter(Boolean)
                .join(', ')}
              {' · '}
              <button type="button" className="link-btn" onClick={clearFilters}>
                Clear filters
              </button>
            </p>
          ) : null}

          {!items.data ? (
            items.error ? (
              <ErrorState title="Your Reader did not load" error={items.error} onRetry={items.reload} />
            ) : (
              <LoadingState label="Loading your Reader…" />
            )
          ) : shown.length === 0 ? (
            filtering ? (
              <EmptyState title="Nothing matches" action={<button type="button" className="btn btn--secondary" onClick={clearFilters}>Clear filters</button>}>
                {q ? `Nothing you saved mentions “${q}”.` : 'No saved links match these filters.'}
              </EmptyState>
            ) : (
              <EmptyState
                title="Nothing saved yet"
                action={
                  <button type="button" className="btn btn--primary" onClick={() => setSheet('add')}>
                    <Icon name="plus" size={20} />
                    Add your first link
                  </button>
                }
              >
                Save an article to read it later, even without internet, or keep a link to a site you use often.
              </EmptyState>
            )
          ) : (
            <>
              {items.error ? (
                <p className="banner banner--warn" role="status">
                  <Icon name="warn" size={22} />
                  <span>Could not refresh: {errorMessage(items.error)}</span>
                </p>
              ) : null}
              <ul className={`reader-list reader-list--${view}`} data-testid="reader-list">
                {shown.map((item) => (
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
              </ul>
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

      <Dialog open={sheet === 'collections'} title="Collections" onClose={() => setSheet(null)} testId="collections-sheet">
        {sidebar}
      </Dialog>
      {sheet === 'add' ? (
        <AddLinkDialog
          collections={collections.data ?? []}
          onClose={() => setSheet(null)}
          onSaved={(item) => {
            setSheet(null);
            setJustSaved(item);
            refreshAll();
          }}
        />
      ) : null}
      {sheet === 'manage' ? (
        <CollectionsDialog
          collections={collections.data}
          tags={tags.data}
          onChanged={refreshAll}
          onClose={() => setSheet(null)}
          onPickTag={(t) => {
            setParam('tag', t);
            setSheet(null);
          }}
        />
      ) : null}
      {sheet === 'import' ? <ImportExportDialog onClose={() => setSheet(null)} onImported={refreshAll} /> : null}
    </section>
  );
}

function CollectionsNav({
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
