// Queries of shopping_lists, shopping_items and shopping_history. The lists are the household's:
// no row has an owner, every member reads and writes every list.
import type { Knex } from 'knex';
import type { Aisle, ShoppingItem, ShoppingList, Suggestion } from './schema.js';

interface ListRow { id: string; name: string; sort_order: number; created_at: string; updated_at: string; open_count?: number; item_count?: number }
interface ItemRow {
  id: string;
  list_id: string;
  name: string;
  quantity: string | null;
  note: string | null;
  category: string;
  checked: number | boolean;
  checked_at: string | null;
  position: number;
  added_by: string | null;
  added_by_name: string;
  barcode: string | null;
  created_at: string;
  updated_at: string;
}
interface HistoryRow { name_key: string; name: string; category: string; times: number; last_at: string }

const list = (r: ListRow): ShoppingList => ({
  id: r.id,
  name: r.name,
  sortOrder: r.sort_order,
  openCount: Number(r.open_count ?? 0),
  itemCount: Number(r.item_count ?? 0),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const item = (r: ItemRow): ShoppingItem => ({
  id: r.id,
  listId: r.list_id,
  name: r.name,
  quantity: r.quantity,
  note: r.note,
  category: r.category as Aisle,
  checked: Boolean(r.checked),
  checkedAt: r.checked_at,
  position: r.position,
  addedBy: { id: r.added_by, name: r.added_by_name },
  barcode: r.barcode,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export interface NewItem {
  id: string;
  listId: string;
  name: string;
  quantity: string | null;
  note: string | null;
  category: Aisle;
  addedBy: { id: string; name: string };
  barcode: string | null;
  at: string;
}

export interface ItemPatch {
  name?: string;
  quantity?: string | null;
  note?: string | null;
  category?: Aisle;
  checked?: boolean;
  checkedAt?: string | null;
}

export const nameKey = (name: string) => name.trim().toLowerCase().replace(/\s+/g, ' ');

export class ShoppingStore {
  constructor(private readonly db: Knex) {}

  private lists$() {
    return this.db('shopping_lists as l')
      .leftJoin('shopping_items as i', 'i.list_id', 'l.id')
      .groupBy('l.id')
      .select('l.*', this.db.raw('count(i.id) as item_count'), this.db.raw('coalesce(sum(case when i.id is not null and not i.checked then 1 else 0 end), 0) as open_count'));
  }

  async lists(): Promise<ShoppingList[]> {
    return ((await this.lists$().orderBy([{ column: 'l.sort_order' }, { column: 'l.created_at' }])) as ListRow[]).map(list);
  }
  async list(id: string): Promise<ShoppingList | null> {
    const r = (await this.lists$().where('l.id', id).first()) as ListRow | undefined;
    return r ? list(r) : null;
  }
  async countLists(): Promise<number> {
    const r = (await this.db('shopping_lists').count({ n: '*' }).first()) as { n: number } | undefined;
    return Number(r?.n ?? 0);
  }
  async insertList(l: { id: string; name: string; at: string }): Promise<void> {
    const max = (await this.db('shopping_lists').max({ m: 'sort_order' }).first()) as { m: number | null } | undefined;
    await this.db('shopping_lists').insert({ id: l.id, name: l.name, sort_order: (max?.m ?? -1) + 1, created_at: l.at, updated_at: l.at });
  }
  async updateList(id: string, patch: { name?: string; sortOrder?: number }, at: string): Promise<void> {
    await this.db('shopping_lists')
      .where({ id })
      .update({ ...(patch.name !== undefined ? { name: patch.name } : {}), ...(patch.sortOrder !== undefined ? { sort_order: patch.sortOrder } : {}), updated_at: at });
  }
  async deleteList(id: string): Promise<boolean> {
    return (await this.db('shopping_lists').where({ id }).delete()) > 0;
  }
  private async touch(trx: Knex, listId: string, at: string): Promise<void> {
    await trx('shopping_lists').where({ id: listId }).update({ updated_at: at });
  }

  async items(listId: string): Promise<ShoppingItem[]> {
    return ((await this.db<ItemRow>('shopping_items').where({ list_id: listId }).orderBy([{ column: 'position' }, { column: 'created_at' }])) as ItemRow[]).map(item);
  }
  async item(listId: string, id: string): Promise<ShoppingItem | null> {
    const r = (await this.db<ItemRow>('shopping_items').where({ list_id: listId, id }).first()) as ItemRow | undefined;
    return r ? item(r) : null;
  }
  async countItems(listId: string): Promise<number> {
    const r = (await this.db('shopping_items').where({ list_id: listId }).count({ n: '*' }).first()) as { n: number } | undefined;
    return Number(r?.n ?? 0);
  }
  /** The item, the list's time and the household's history of that name, in one transaction. */
  async insertItem(n: NewItem): Promise<void> {
    await this.db.transaction(async (trx) => {
      const max = (await trx('shopping_items').where({ list_id: n.listId }).max({ m: 'position' }).first()) as { m: number | null } | undefined;
      await trx('shopping_items').insert({
        id: n.id,
        list_id: n.listId,
        name: n.name,
        quantity: n.quantity,
        note: n.note,
        category: n.category,
        checked: false,
        checked_at: null,
        position: (max?.m ?? -1) + 1,
        added_by: n.addedBy.id,
        added_by_name: n.addedBy.name,
        barcode: n.barcode,
        created_at: n.at,
        updated_at: n.at,
      });
      await trx('shopping_history')
        .insert({ name_key: nameKey(n.name), name: n.name, category: n.category, times: 1, last_at: n.at })
        .onConflict('name_key')
        .merge({ name: n.name, category: n.category, times: trx.raw('shopping_history.times + 1'), last_at: n.at });
      await this.touch(trx, n.listId, n.at);
    });
  }
  async updateItem(listId: string, id: string, p: ItemPatch, at: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row: Record<string, unknown> = { updated_at: at };
      if (p.name !== undefined) row.name = p.name;
      if (p.quantity !== undefined) row.quantity = p.quantity;
      if (p.note !== undefined) row.note = p.note;
      if (p.category !== undefined) row.category = p.category;
      if (p.checked !== undefined) row.checked = p.checked;
      if (p.checkedAt !== undefined) row.checked_at = p.checkedAt;
      await trx('shopping_items').where({ list_id: listId, id }).update(row);
      // the household's own aisle for a name is remembered for the next time it is added
      if (p.category !== undefined) {
        const r = (await trx('shopping_items').where({ id }).first('name')) as { name: string } | undefined;
        if (r) await trx('shopping_history').where({ name_key: nameKey(r.name) }).update({ category: p.category });
      }
      await this.touch(trx, listId, at);
    });
  }
  async deleteItem(listId: string, id: string, at: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const n = await trx('shopping_items').where({ list_id: listId, id }).delete();
      if (n > 0) await this.touch(trx, listId, at);
      return n > 0;
    });
  }
  async clearChecked(listId: string, at: string): Promise<number> {
    return this.db.transaction(async (trx) => {
      const n = await trx('shopping_items').where({ list_id: listId, checked: true }).delete();
      if (n > 0) await this.touch(trx, listId, at);
      return n;
    });
  }

  async historyOf(name: string): Promise<Suggestion | null> {
    const r = (await this.db<HistoryRow>('shopping_history').where({ name_key: nameKey(name) }).first()) as HistoryRow | undefined;
    return r ? { name: r.name, category: r.category as Aisle, times: r.times, lastAt: r.last_at } : null;
  }
  /**
   * Names the household has bought that start with `prefix` (or a word of them does), most often
   * bought first, then most recent; without a prefix, the most recent. Names on the list open now
   * (not ticked) are left out.
   */
  async suggestions(prefix: string, exclude: readonly string[], limit: number): Promise<Suggestion[]> {
    const q = this.db<HistoryRow>('shopping_history');
    if (prefix) {
      const like = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
      q.where((w) => {
        w.whereRaw("name_key like ? escape '\\'", [`${like}%`]).orWhereRaw("name_key like ? escape '\\'", [`% ${like}%`]);
      });
      q.orderByRaw("case when name_key like ? escape '\\' then 0 else 1 end", [`${like}%`]).orderBy([{ column: 'times', order: 'desc' }, { column: 'last_at', order: 'desc' }]);
    } else {
      q.orderBy([{ column: 'last_at', order: 'desc' }, { column: 'times', order: 'desc' }]);
    }
    if (exclude.length > 0) q.whereNotIn('name_key', exclude.map(nameKey));
    return ((await q.limit(limit)) as HistoryRow[]).map((r) => ({ name: r.name, category: r.category as Aisle, times: r.times, lastAt: r.last_at }));
  }
}
