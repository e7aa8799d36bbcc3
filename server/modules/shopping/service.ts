// The household's shopping lists: every signed-in member reads and changes every list (they are the
// household's, like a note on the fridge); an item keeps who added it and when it was ticked. Every
// change tells the list's open streams, which send the list's whole state again, so every phone in
// the shop shows the same list. A scanned barcode is named through the lookup module; the aisle is
// the household's own choice for that name when there is one, otherwise the built-in dictionary's.
import { randomUUID } from 'node:crypto';
import type { UserActor } from '../../actor.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { guessAisle, guessAisleOfProduct } from './aisles.js';
import type { ShoppingPorts } from './ports.js';
import { MAX_ITEMS, MAX_LISTS, type AddItemBody, type Aisle, type ListDetail, type PatchItemBody, type ShoppingItem, type ShoppingList, type Suggestion } from './schema.js';
import type { ItemPatch, ShoppingStore } from './store.js';

export interface ShoppingDeps {
  store: ShoppingStore;
  clock: Clock;
  barcodes: ShoppingPorts['barcodes'];
}

/** What a list's stream sends. */
export interface ListSink {
  state(detail: ListDetail): void;
  deleted(id: string): void;
  signal: AbortSignal;
}

const listGone = () => new NotFoundError('That shopping list is not there any more.');
const itemGone = () => new NotFoundError('That item is not on the list any more.');

export class ShoppingService {
  private readonly watchers = new Map<string, Set<() => void>>();

  constructor(private readonly deps: ShoppingDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
  private changed(listId: string): void {
    for (const w of this.watchers.get(listId) ?? []) w();
  }
  private async listOrNotFound(id: string): Promise<ShoppingList> {
    const l = await this.deps.store.list(id);
    if (!l) throw listGone();
    return l;
  }

  async lists(_actor: UserActor): Promise<ShoppingList[]> {
    return this.deps.store.lists();
  }

  async detail(_actor: UserActor, id: string): Promise<ListDetail> {
    const list = await this.listOrNotFound(id);
    return { list, items: await this.deps.store.items(id) };
  }

  async createList(_actor: UserActor, name: string): Promise<ShoppingList> {
    if ((await this.deps.store.countLists()) >= MAX_LISTS) throw new ConflictError('too_many_lists', `The household has ${MAX_LISTS} shopping lists, the most it may keep. Delete one it no longer needs first.`);
    const id = randomUUID();
    await this.deps.store.insertList({ id, name, at: this.now() });
    return this.listOrNotFound(id);
  }

  async updateList(_actor: UserActor, id: string, patch: { name?: string | undefined; sortOrder?: number | undefined }): Promise<ShoppingList> {
    await this.listOrNotFound(id);
    await this.deps.store.updateList(id, { ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.sortOrder !== undefined ? { sortOrder: patch.sortOrder } : {}) }, this.now());
    this.changed(id);
    return this.listOrNotFound(id);
  }

  async deleteList(_actor: UserActor, id: string): Promise<void> {
    if (!(await this.deps.store.deleteList(id))) throw listGone();
    this.changed(id);
  }

  /** Adds an item by name, or by a barcode the lookup names (an unknown barcode adds nothing: 404). */
  async addItem(actor: UserActor, listId: string, body: AddItemBody): Promise<ShoppingItem> {
    await this.listOrNotFound(listId);
    if ((await this.deps.store.countItems(listId)) >= MAX_ITEMS) throw new ConflictError('list_full', `This list has ${MAX_ITEMS} items, the most one list may hold. Clear the ticked ones first.`);
    let name: string;
    let note: string | null;
    let category: Aisle;
    let barcode: string | null = null;
    if (body.barcode !== undefined) {
      const product = await this.deps.barcodes.barcode(actor, body.barcode);
      barcode = product.code;
      name = (product.name ?? (product.brand ? `${product.brand} product` : `Product ${product.code}`)).slice(0, 120);
      note = body.note || [product.brand, product.quantity].filter(Boolean).join(', ') || null;
      category = body.category ?? (await this.deps.store.historyOf(name))?.category ?? guessAisleOfProduct(name, product.categories);
    } else {
      name = body.name!;
      note = body.note || null;
      category = body.category ?? (await this.deps.store.historyOf(name))?.category ?? guessAisle(name);
    }
    const id = randomUUID();
    await this.deps.store.insertItem({ id, listId, name, quantity: body.quantity || null, note, category, addedBy: { id: actor.id, name: actor.name }, barcode, at: this.now() });
    this.changed(listId);
    return (await this.deps.store.item(listId, id))!;
  }

  async updateItem(_actor: UserActor, listId: string, itemId: string, body: PatchItemBody): Promise<ShoppingItem> {
    const before = await this.deps.store.item(listId, itemId);
    if (!before) throw itemGone();
    const patch: ItemPatch = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.quantity !== undefined) patch.quantity = body.quantity || null;
    if (body.note !== undefined) patch.note = body.note || null;
    if (body.category !== undefined) patch.category = body.category;
    // ticking again keeps the first tick's time; unticking clears it
    if (body.checked !== undefined && body.checked !== before.checked) {
      patch.checked = body.checked;
      patch.checkedAt = body.checked ? this.now() : null;
    }
    await this.deps.store.updateItem(listId, itemId, patch, this.now());
    this.changed(listId);
    return (await this.deps.store.item(listId, itemId)) ?? before;
  }

  async deleteItem(_actor: UserActor, listId: string, itemId: string): Promise<void> {
    await this.listOrNotFound(listId);
    if (!(await this.deps.store.deleteItem(listId, itemId, this.now()))) throw itemGone();
    this.changed(listId);
  }

  async clearChecked(_actor: UserActor, listId: string): Promise<number> {
    await this.listOrNotFound(listId);
    const n = await this.deps.store.clearChecked(listId, this.now());
    if (n > 0) this.changed(listId);
    return n;
  }

  /** Names the household has bought, matching what is typed; what is open on `listId` is left out. */
  async suggestions(_actor: UserActor, q: string, listId?: string): Promise<Suggestion[]> {
    const open = listId ? (await this.deps.store.items(listId)).filter((i) => !i.checked).map((i) => i.name) : [];
    return this.deps.store.suggestions(q.toLowerCase(), open, 8);
  }

  /**
   * Follows a list: `open()` is called once the list is known to exist (a missing list is a 404
   * before the stream opens); its state is sent then and after every change, until the client goes
   * away or the list is deleted (`deleted`, then the stream ends).
   */
  async stream(actor: UserActor, listId: string, open: () => ListSink): Promise<void> {
    const first = await this.detail(actor, listId);
    const sink = open();
    sink.state(first);
    let running = false;
    let dirty = false;
    let finish = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    const refresh = async () => {
      if (running) {
        dirty = true;
        return;
      }
      running = true;
      try {
        do {
          dirty = false;
          const list = await this.deps.store.list(listId);
          if (sink.signal.aborted) return;
          if (!list) {
            sink.deleted(listId);
            finish();
            return;
          }
          sink.state({ list, items: await this.deps.store.items(listId) });
        } while (dirty && !sink.signal.aborted);
      } finally {
        running = false;
      }
    };
    const watcher = () => void refresh().catch(() => finish());
    let set = this.watchers.get(listId);
    if (!set) this.watchers.set(listId, (set = new Set()));
    set.add(watcher);
    sink.signal.addEventListener('abort', () => finish(), { once: true });
    if (sink.signal.aborted) finish();
    try {
      await done;
    } finally {
      set.delete(watcher);
      if (set.size === 0) this.watchers.delete(listId);
    }
  }
}
