// Inventory: every device in the house. Photo cards in a grid (on a laptop, a list too, remembered on
// this device), a search over name, brand, model, category and location, category chips with
// counts, warranty badges, and "Looking up…" on devices whose manual is being found (the list is
// read again every 3 s while any is, queries.ts). A first visit gets a kind start: Add by photo
// (the phone's camera) or Add by hand. Adding happens in place (AddDevice).
import { useState, type ReactElement } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { Icon } from '../../ui/icons';
import { EmptyState, ErrorState, LoadingState } from '../../ui/StateViews';
import { useDebounced, useStoredChoice } from '../../ui/hooks';
import { useSearchInAddress } from '../../ui/useSearchInAddress';
import { AddDevice, type AddMode } from './AddDevice';
import { ImportExportDialog } from './ImportExportDialog';
import { DeviceCard, FileButton } from './parts';
import { useDevices } from './queries';
import { asCategory, CATEGORIES, CATEGORY_TEXT, WARRANTIES_HREF, type DeviceCategory } from './types';
import { CardLayoutSwitch } from '../../ui/CardLayoutSwitch';
import { CardList } from '../../ui/CardList';
import { SearchField } from '../../ui/SearchField';
import './inventory.css';

const VIEWS = ['grid', 'list'] as const;

export function InventoryPage(): ReactElement {
  const [adding, setAdding] = useState<AddMode | null>(null);
  if (adding) return <AddDevice key={adding.kind} mode={adding} onDone={() => setAdding(null)} />;
  return <DeviceList onAdd={setAdding} />;
}

function AddButtons({ onAdd, compact }: { onAdd: (m: AddMode) => void; compact?: boolean }): ReactElement {
  return (
    <>
      <FileButton label="Add by photo" accept="image/*" capture="environment" icon="plus" tone="primary" compact={compact} onFile={(file) => onAdd({ kind: 'photo', file })} testId="add-by-photo" />
      <button type="button" className={`btn btn--secondary${compact ? ' btn--compact' : ''}`} onClick={() => onAdd({ kind: 'hand' })}>
        <Icon name="edit" size={20} />
        Add by hand
      </button>
    </>
  );
}

function DeviceList({ onAdd }: { onAdd: (m: AddMode) => void }): ReactElement {
  const [params, setParams] = useSearchParams();
  const category = asCategory(params.get('category'));
  const [query, setQuery] = useState(params.get('q') ?? '');
  const q = useDebounced(query.trim(), 200);
  const [view, setView] = useStoredChoice('hearth.inventory.view', VIEWS, 'grid');
  const [transfer, setTransfer] = useState(false);
  const list = useDevices(q, category);

  // the search is kept in the address, so Back from a device comes back to it
  useSearchInAddress(q);

  const setCategory = (c: string | null) => {
    const next = new URLSearchParams(params);
    if (c) next.set('category', c);
    else next.delete('category');
    setParams(next, { replace: true });
  };

  const devices = list.data?.pages.flatMap((p) => p.devices) ?? [];
  const counts: Partial<Record<DeviceCategory, number>> = list.data?.pages[0]?.categories ?? {};
  const matching = list.data?.pages[0]?.total ?? 0;
  const total = Object.values(counts).reduce<number>((a, b) => a + (b ?? 0), 0);
  const filtering = Boolean(q || category);
  const empty = list.data !== undefined && devices.length === 0 && !filtering;

  return (
    <section className="page inventory" aria-labelledby="inventory-title">
      <div className="page__head">
        <div className="page__intro">
          <h1 id="inventory-title" className="page__title">
            Inventory
          </h1>
          <p className="muted page__description">Every device in the house, with its manual, warranty and service history.</p>
        </div>
        {!empty && list.data ? (
          <div className="page__actions">
            <AddButtons onAdd={onAdd} compact />
          </div>
        ) : null}
      </div>
      <nav className="inv-subnav" aria-label="Inventory">
        <Link to={WARRANTIES_HREF} className="btn btn--ghost btn--compact">
          <Icon name="shield" size={20} />
          Warranties
        </Link>
        <button type="button" className="btn btn--ghost btn--compact" onClick={() => setTransfer(true)}>
          <Icon name="download" size={20} />
          Import and export
        </button>
      </nav>

      {!list.data ? (
        list.error ? (
          <ErrorState title="The inventory did not load" error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <LoadingState label="Loading the inventory…" />
        )
      ) : empty ? (
        <EmptyState title="Nothing in the inventory yet" icon="archive" action={<div className="actions inv-empty-actions"><AddButtons onAdd={onAdd} /></div>}>
          Take a photo of a device’s label (the sticker with the model and serial number) and Hearth fills in the details and looks for its manual. Or type them in yourself.
        </EmptyState>
      ) : (
        <>
          <div className="inv-toolbar">
            <SearchField
              id="inventory-search"
              className="inv-search"
              label="Search the inventory"
              placeholder="Search by name, brand, model or room"
              value={query}
              onChange={setQuery}
            />
            <CardLayoutSwitch label="Show as" className="inv-view" order={VIEWS} titles value={view} onChange={setView} />
          </div>

          <ul className="inv-chips" aria-label="Kinds of device">
            <li>
              <button type="button" className="inv-chip" aria-pressed={category === null} onClick={() => setCategory(null)}>
                All <span className="inv-chip__count">{total}</span>
              </button>
            </li>
            {CATEGORIES.filter((c) => (counts[c] ?? 0) > 0 || c === category).map((c) => (
              <li key={c}>
                <button type="button" className="inv-chip" aria-pressed={category === c} onClick={() => setCategory(category === c ? null : c)}>
                  {CATEGORY_TEXT[c]} <span className="inv-chip__count">{counts[c] ?? 0}</span>
                </button>
              </li>
            ))}
          </ul>

          {list.error ? (
            <p className="banner banner--warn" role="status">
              <Icon name="warn" size={22} />
              <span>Could not refresh: {errorMessage(list.error)}</span>
            </p>
          ) : null}

          {devices.length === 0 ? (
            <EmptyState
              title="Nothing matches"
              action={
                <button
                  type="button"
                  className="btn btn--secondary"
                  onClick={() => {
                    setQuery('');
                    setParams(new URLSearchParams(), { replace: true });
                  }}
                >
                  Show everything
                </button>
              }
            >
              {q ? `No device matches “${q}”${category ? ` among ${CATEGORY_TEXT[category].toLowerCase()}` : ''}.` : 'No devices of this kind yet.'}
            </EmptyState>
          ) : (
            <CardList view={view} className="inv-list" label="Devices" testId="device-list">
              {devices.map((d) => (
                <DeviceCard key={d.id} device={d} view={view} />
              ))}
            </CardList>
          )}
          {list.hasNextPage ? (
            <div className="inv-more">
              <p className="muted">
                Showing {devices.length} of {matching} devices.
              </p>
              <button type="button" className="btn btn--secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {list.isFetchingNextPage ? 'Loading more…' : 'Show more'}
              </button>
            </div>
          ) : null}
        </>
      )}
      <ImportExportDialog open={transfer} onClose={() => setTransfer(false)} />
    </section>
  );
}
