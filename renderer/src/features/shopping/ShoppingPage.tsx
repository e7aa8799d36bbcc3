// /shopping (issue 38): the household's shared shopping lists, built for one hand in a shop. The
// open items are grouped by aisle with a whole-row tick target (at least 48 px high); ticked items
// move to "In the basket", from where "Clear ticked" removes them. Every phone on the list sees each
// change at once (useLiveList). A tick made without a connection is shown at once and sent when the
// phone is back ("2 changes waiting to send"). Adding: a name with suggestions from what the
// household buys, or a barcode typed (or scanned with the camera where the browser can read
// barcodes; elsewhere the scan button is not shown).
import { useEffect, useId, useMemo, useState, type FormEvent, type ReactElement } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import type { Aisle, ShoppingItem, ShoppingList } from '../../api/types';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { IconButton } from '../../ui/IconButton';
import { PageHeader } from '../../ui/PageHeader';
import { EmptyState, ErrorState, FormError, LoadingState } from '../../ui/StateViews';
import { Icon } from '../../ui/icons';
import { BarcodeScanButton } from '../lookup';
import {
  useAddItem,
  useChangeItem,
  useClearChecked,
  useCreateList,
  useDeleteList,
  useLiveList,
  useOnline,
  usePendingTicks,
  useRemoveItem,
  useRenameList,
  useSendPendingTicks,
  useShoppingList,
  useShoppingLists,
  useSuggestions,
  useTick,
} from './queries';
import './shopping.css';

/** The aisles in the order a shop is usually walked, with the words the page shows. */
const AISLE_LABELS: Record<Aisle, string> = {
  produce: 'Fruit and vegetables',
  bakery: 'Bakery',
  dairy: 'Dairy and eggs',
  meat: 'Meat',
  fish: 'Fish',
  frozen: 'Frozen',
  pantry: 'Cupboard',
  snacks: 'Snacks and sweets',
  drinks: 'Drinks',
  household: 'Household',
  personal_care: 'Personal care',
  baby: 'Baby',
  pets: 'Pets',
  other: 'Other',
};
const AISLE_ORDER = Object.keys(AISLE_LABELS) as Aisle[];

function NewListForm({ onMade, first }: { onMade: (list: ShoppingList) => void; first: boolean }): ReactElement {
  const create = useCreateList();
  const [name, setName] = useState(first ? 'Groceries' : '');
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate(name.trim(), { onSuccess: ({ list }) => onMade(list) });
  };
  return (
    <form className="shop-newlist" onSubmit={submit}>
      <label htmlFor={id} className="field__label">
        {first ? 'Name of the list' : 'New list'}
      </label>
      <div className="shop-row">
        <input id={id} className="input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} placeholder="Hardware store" required />
        <button type="submit" className="btn btn--primary" disabled={create.isPending || !name.trim()}>
          <Icon name="plus" size={20} />
          Make the list
        </button>
      </div>
      <FormError message={create.isError ? errorMessage(create.error) : null} />
    </form>
  );
}

function AddItemForm({ listId }: { listId: string }): ReactElement {
  const add = useAddItem(listId);
  const online = useOnline();
  const [text, setText] = useState('');
  const [barcode, setBarcode] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(text), 150);
    return () => window.clearTimeout(t);
  }, [text]);
  const suggestions = useSuggestions(debounced, listId);
  const nameId = useId();
  const codeId = useId();
  const hintId = useId();
  const addName = (name: string) => {
    const n = name.trim();
    if (!n) return;
    add.mutate({ name: n }, { onSuccess: () => setText('') });
  };
  const addCode = (code: string) => {
    if (!/^\d{8,14}$/.test(code)) return;
    add.mutate({ barcode: code }, { onSuccess: () => setBarcode('') });
  };
  const shown = (suggestions.data?.suggestions ?? []).filter((s) => s.name.toLowerCase() !== text.trim().toLowerCase()).slice(0, 6);
  return (
    <div className="shop-add">
      <form
        className="shop-add__form"
        onSubmit={(e) => {
          e.preventDefault();
          addName(text);
        }}
      >
        <label htmlFor={nameId} className="field__label">
          Add to the list
        </label>
        <div className="shop-row">
          <input id={nameId} className="input" value={text} maxLength={120} autoComplete="off" enterKeyHint="done" onChange={(e) => setText(e.target.value)} placeholder="Milk" />
          <button type="submit" className="btn btn--primary" disabled={add.isPending || !text.trim() || !online}>
            <Icon name="plus" size={20} />
            Add
          </button>
        </div>
      </form>
      {shown.length > 0 ? (
        <div className="shop-suggest" role="group" aria-label={text.trim() ? 'Suggestions' : 'Bought before'}>
          {shown.map((s) => (
            <button key={s.name} type="button" className="btn btn--secondary shop-suggest__chip" disabled={add.isPending || !online} onClick={() => addName(s.name)}>
              <Icon name="plus" size={18} />
              {s.name}
            </button>
          ))}
        </div>
      ) : null}
      <form
        className="shop-add__form"
        onSubmit={(e) => {
          e.preventDefault();
          addCode(barcode.trim());
        }}
      >
        <label htmlFor={codeId} className="field__label">
          Or a barcode
        </label>
        <div className="shop-row">
          <input
            id={codeId}
            className="input"
            value={barcode}
            inputMode="numeric"
            pattern="[0-9]{8,14}"
            maxLength={14}
            autoComplete="off"
            aria-describedby={hintId}
            onChange={(e) => setBarcode(e.target.value.replace(/\D/g, ''))}
            placeholder="4012345678901"
          />
          <button type="submit" className="btn btn--secondary" disabled={add.isPending || !/^\d{8,14}$/.test(barcode) || !online}>
            Look up and add
          </button>
          <BarcodeScanButton onCode={addCode} disabled={add.isPending || !online} />
        </div>
        <span id={hintId} className="field__hint">
          The 8 to 14 digits under the bars. Hearth asks Open Food Facts for the product’s name.
        </span>
      </form>
      {!online ? <p className="muted">This phone is offline: ticks are kept and sent later, new items need a connection.</p> : null}
      <FormError message={add.isError ? errorMessage(add.error) : null} />
    </div>
  );
}

function ItemRow({ item, onTick, onRemove }: { item: ShoppingItem; onTick: (checked: boolean) => void; onRemove: () => void }): ReactElement {
  // the label holds the checkbox and the words: the whole row (but the remove button) is the tick target
  return (
    <li className={`shop-item${item.checked ? ' shop-item--checked' : ''}`}>
      <label className="shop-item__label">
        <input type="checkbox" className="shop-item__box" checked={item.checked} onChange={(e) => onTick(e.target.checked)} />
        <span className="shop-item__words">
          <span className="shop-item__name">
            {item.quantity ? <span className="shop-item__qty">{item.quantity} </span> : null}
            {item.name}
          </span>
          <span className="shop-item__meta">
            {item.note ? `${item.note} · ` : ''}added by {item.addedBy.name}
          </span>
        </span>
      </label>
      <IconButton icon="trash" label="Remove" accessibleLabel={`Remove ${item.name}`} labelShown="never" tone="ghost" onClick={onRemove} />
    </li>
  );
}

function AisleChooser({ item, onChange }: { item: ShoppingItem; onChange: (a: Aisle) => void }): ReactElement {
  const id = useId();
  return (
    <span className="shop-aisle">
      <label htmlFor={id} className="visually-hidden">
        Aisle of {item.name}
      </label>
      <select id={id} className="shop-aisle__select" value={item.category} onChange={(e) => onChange(e.target.value as Aisle)}>
        {AISLE_ORDER.map((a) => (
          <option key={a} value={a}>
            {AISLE_LABELS[a]}
          </option>
        ))}
      </select>
    </span>
  );
}

function ListView({ list, onGone }: { list: ShoppingList; onGone: () => void }): ReactElement {
  const detail = useShoppingList(list.id);
  const { lost } = useLiveList(list.id);
  const tick = useTick();
  const pending = usePendingTicks();
  const remove = useRemoveItem(list.id);
  const change = useChangeItem(list.id);
  const clear = useClearChecked(list.id);
  const rename = useRenameList();
  const del = useDeleteList();
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState(list.name);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [sorting, setSorting] = useState(false);
  const nameId = useId();

  const items = detail.data?.items ?? [];
  const groups = useMemo(() => {
    const open = items.filter((i) => !i.checked);
    return AISLE_ORDER.map((a) => ({ aisle: a, items: open.filter((i) => i.category === a) })).filter((g) => g.items.length > 0);
  }, [items]);
  const basket = items.filter((i) => i.checked);
  const waiting = pending.length;

  if (detail.isPending) return <LoadingState label="Loading the list…" />;
  if (detail.isError) return <ErrorState error={detail.error} title="The list did not load" onRetry={() => void detail.refetch()} />;

  return (
    <div className="shop-list">
      <div className="shop-list__status" role="status" aria-live="polite">
        {waiting > 0 ? (
          <p className="shop-pending">
            <Icon name="warn" size={20} />
            {waiting === 1 ? '1 change waiting to send' : `${waiting} changes waiting to send`}: they go to Hearth when this phone is back in touch.
          </p>
        ) : null}
        {lost && waiting === 0 ? <p className="muted">Not live right now: changes from others show when the connection is back.</p> : null}
      </div>

      <AddItemForm listId={list.id} />

      {groups.length === 0 ? (
        <EmptyState icon="check" title={basket.length > 0 ? 'Everything is in the basket' : 'Nothing on this list yet'}>
          {basket.length > 0 ? 'Clear the ticked items when you are done.' : 'Add what the household needs above; everyone sees it at once.'}
        </EmptyState>
      ) : (
        <div className="shop-aisles">
          {groups.map((g) => (
            <section key={g.aisle} className="shop-group" aria-labelledby={`aisle-${g.aisle}`}>
              <h2 id={`aisle-${g.aisle}`} className="shop-group__title">
                {AISLE_LABELS[g.aisle]}
              </h2>
              <ul className="shop-items">
                {g.items.map((i) => (
                  <ItemRow key={i.id} item={i} onTick={(c) => tick(i, c)} onRemove={() => remove.mutate(i.id)} />
                ))}
              </ul>
              {sorting ? (
                <ul className="shop-sort">
                  {g.items.map((i) => (
                    <li key={i.id} className="shop-sort__row">
                      <span>{i.name}</span>
                      <AisleChooser item={i} onChange={(a) => change.mutate({ id: i.id, category: a })} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </section>
          ))}
        </div>
      )}
      <FormError message={remove.isError ? errorMessage(remove.error) : change.isError ? errorMessage(change.error) : null} />

      {basket.length > 0 ? (
        <section className="shop-group shop-group--basket" aria-labelledby="shop-basket">
          <div className="shop-group__head">
            <h2 id="shop-basket" className="shop-group__title">
              In the basket ({basket.length})
            </h2>
            <button type="button" className="btn btn--secondary" disabled={clear.isPending || waiting > 0} onClick={() => clear.mutate()}>
              <Icon name="trash" size={20} />
              Clear ticked
            </button>
          </div>
          <ul className="shop-items">
            {basket.map((i) => (
              <ItemRow key={i.id} item={i} onTick={(c) => tick(i, c)} onRemove={() => remove.mutate(i.id)} />
            ))}
          </ul>
          <FormError message={clear.isError ? errorMessage(clear.error) : null} />
        </section>
      ) : null}

      <div className="shop-list__tools">
        {groups.length > 0 ? (
          <button type="button" className="btn btn--ghost" aria-pressed={sorting} onClick={() => setSorting((s) => !s)}>
            <Icon name="sliders" size={20} />
            {sorting ? 'Done moving' : 'Move to another aisle'}
          </button>
        ) : null}
        {renaming ? (
          <form
            className="shop-row"
            onSubmit={(e) => {
              e.preventDefault();
              if (newName.trim()) rename.mutate({ id: list.id, name: newName.trim() }, { onSuccess: () => setRenaming(false) });
            }}
          >
            <label htmlFor={nameId} className="visually-hidden">
              New name of the list
            </label>
            <input id={nameId} className="input" value={newName} maxLength={80} onChange={(e) => setNewName(e.target.value)} />
            <button type="submit" className="btn btn--primary" disabled={rename.isPending || !newName.trim()}>
              Save
            </button>
            <button type="button" className="btn btn--ghost" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => {
              setNewName(list.name);
              setRenaming(true);
            }}
          >
            <Icon name="edit" size={20} />
            Rename list
          </button>
        )}
        <button type="button" className="btn btn--danger-ghost" onClick={() => setConfirmDelete(true)}>
          <Icon name="trash" size={20} />
          Delete list
        </button>
      </div>
      <FormError message={rename.isError ? errorMessage(rename.error) : null} />
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete “${list.name}”?`}
        description="The list and everything on it goes for everyone in the household."
        confirmLabel="Delete list"
        onConfirm={async () => {
          await del.mutateAsync(list.id);
          setConfirmDelete(false);
          onGone();
        }}
        onClose={() => setConfirmDelete(false)}
      />
    </div>
  );
}

export function ShoppingPage(): ReactElement {
  useSendPendingTicks();
  const lists = useShoppingLists();
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const all = lists.data?.lists ?? [];
  const wanted = params.get('list');
  const current = all.find((l) => l.id === wanted) ?? all[0] ?? null;
  const choose = (id: string | null) => setParams(id ? { list: id } : {}, { replace: true });

  let body: ReactElement;
  if (lists.isPending) body = <LoadingState label="Loading the shopping lists…" />;
  else if (lists.isError) body = <ErrorState error={lists.error} title="The shopping lists did not load" onRetry={() => void lists.refetch()} />;
  else if (!current)
    body = (
      <EmptyState icon="list" title="No shopping list yet">
        <span className="shop-empty">Make one for the household: everyone can add to it and tick things off in the shop.</span>
        <NewListForm first onMade={(l) => choose(l.id)} />
      </EmptyState>
    );
  else
    body = (
      <>
        <div className="shop-lists" role="group" aria-label="Lists">
          {all.map((l) => (
            <button key={l.id} type="button" className={`btn ${l.id === current.id ? 'btn--primary' : 'btn--secondary'} shop-lists__tab`} aria-pressed={l.id === current.id} onClick={() => choose(l.id)}>
              {l.name}
              <span className="shop-lists__count">{l.openCount}</span>
            </button>
          ))}
          <button type="button" className="btn btn--ghost shop-lists__tab" aria-expanded={adding} onClick={() => setAdding((a) => !a)}>
            <Icon name="plus" size={20} />
            New list
          </button>
        </div>
        {adding ? (
          <NewListForm
            first={false}
            onMade={(l) => {
              setAdding(false);
              choose(l.id);
            }}
          />
        ) : null}
        <ListView key={current.id} list={current} onGone={() => choose(null)} />
      </>
    );

  return (
    <section className="page shopping" aria-labelledby="shopping-title">
      <PageHeader titleId="shopping-title" title="Shopping" description="The household’s shared lists. Ticks show on every phone at once." />
      {body}
    </section>
  );
}
