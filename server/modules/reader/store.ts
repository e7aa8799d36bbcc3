// reader_items with their tags (reader_tags, reader_item_tags, written inside the item
// transactions) and change history (reader_item_changes): the items themselves, the capture queue
// and the change monitor. The listing and full-text search are in search-store.ts, collections and
// the tag list in collections-store.ts, the row mapping in item-rows.ts. Dumb queries: no
// authorization. Multi-row writes run in one transaction.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { rowsBySeqs, toRecord, toRow, type NewItem, type Row } from './item-rows.js';
import type { ItemChange, ItemRecord } from './schema.js';

export interface MonitoredItem {
  id: string;
  autoUpdateIntervalMins: number | null;
  lastCheckedAt: string | null;
}

export interface ChangeRecord {
  itemId: string;
  checkedAt: string;
  changed: boolean;
  wordCount: number | null;
  previousWordCount: number | null;
  excerpt: string | null;
}

/** Rows per multi-row INSERT: 40 columns each stays far below SQLite's 32,766 bound parameters. */
const ITEMS_PER_INSERT = 100;
const LINKS_PER_INSERT = 500;

export class ReaderStore {
  constructor(private readonly db: Knex) {}

  // ---- items ----

  /** Which of these ids still have an item (in batches under SQLite's variable limit). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = (await this.db('reader_items').whereIn('id', ids.slice(i, i + 500)).select('id')) as Array<{ id: string }>;
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  async findById(id: string): Promise<ItemRecord | null> {
    const row = (await this.db('reader_items').where({ id }).first()) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Inserts the item and applies its tags (created on first use) in one transaction. */
  async insert(item: NewItem, tags: string[] = [], now = item.createdAt): Promise<ItemRecord> {
    await this.db.transaction(async (trx) => {
      await trx('reader_items').insert(toRow(item));
      if (tags.length) await this.setTagsIn(trx, item.id, item.ownerId, tags, now);
    });
    return (await this.findById(item.id))!;
  }

  /**
   * Inserts many items with their tags in one transaction (an import writes one bounded chunk per
   * call, see ReaderTransferService.importHtml). Rows go in as multi-row INSERTs and each distinct tag name
   * is looked up once, so a chunk costs about one statement per ITEMS_PER_INSERT items rather than
   * one per item and tag.
   */
  async insertMany(entries: Array<{ item: NewItem; tags: string[] }>, now: string): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction(async (trx) => {
      for (let i = 0; i < entries.length; i += ITEMS_PER_INSERT) await trx('reader_items').insert(entries.slice(i, i + ITEMS_PER_INSERT).map((e) => toRow(e.item)));
      const tagIds = new Map<string, string>();
      const links: Array<{ item_id: string; tag_id: string }> = [];
      for (const e of entries) {
        const seen = new Set<string>();
        for (const name of e.tags) {
          const key = `${e.item.ownerId ?? ''}\u0000${name.toLowerCase()}`;
          if (seen.has(key)) continue;
          seen.add(key);
          let id = tagIds.get(key);
          if (id === undefined) {
            id = await this.tagIdIn(trx, e.item.ownerId, name, now);
            tagIds.set(key, id);
          }
          links.push({ item_id: e.item.id, tag_id: id });
        }
      }
      for (let i = 0; i < links.length; i += LINKS_PER_INSERT) await trx('reader_item_tags').insert(links.slice(i, i + LINKS_PER_INSERT));
    });
  }

  /** Updates the given fields (and tags when given) in one transaction; false when the item is gone. */
  async update(id: string, patch: Partial<ItemRecord>, tags?: string[], now?: string): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const current = (await trx('reader_items').where({ id }).first('owner_id')) as { owner_id: string | null } | undefined;
      if (!current) return false;
      const row = toRow(patch);
      if (Object.keys(row).length) await trx('reader_items').where({ id }).update(row);
      if (tags) await this.setTagsIn(trx, id, current.owner_id, tags, now ?? new Date().toISOString());
      return true;
    });
  }

  /** Updates only when the item is still in one of the given archive states (queue transitions). */
  async updateIfState(id: string, states: string[], patch: Partial<ItemRecord>): Promise<boolean> {
    return (await this.db('reader_items').where({ id }).whereIn('archive_state', states).update(toRow(patch))) > 0;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db('reader_items').where({ id }).delete()) > 0;
  }

  async findBySourceRef(ownerId: string | null, sourceRef: string): Promise<ItemRecord | null> {
    const q = this.db('reader_items').where({ source_ref: sourceRef });
    const row = (await (ownerId === null ? q.whereNull('owner_id') : q.where({ owner_id: ownerId })).first()) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Existing URLs among `urls` for this owner (import duplicate detection, on the (owner_id, url) index). */
  async existingUrls(ownerId: string | null, urls: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < urls.length; i += 500) {
      const q = this.db('reader_items').whereIn('url', urls.slice(i, i + 500));
      const rows = (await (ownerId === null ? q.whereNull('owner_id') : q.where({ owner_id: ownerId })).select('url')) as Array<{ url: string }>;
      for (const r of rows) found.add(r.url);
    }
    return found;
  }

  /**
   * An owner's rows (null = global) in export order, oldest first, as just their seq, collection
   * and date: the exports then read the full rows a page at a time (fullBySeqs).
   */
  async exportOrder(ownerId: string | null, type?: ItemRecord['type']): Promise<Array<{ seq: number; collectionId: string | null; createdAt: string }>> {
    const q = this.db('reader_items').select('seq', 'collection_id', 'created_at').orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'seq', order: 'asc' },
    ]);
    if (type) q.where({ type });
    const rows = (await (ownerId === null ? q.whereNull('owner_id') : q.where({ owner_id: ownerId }))) as Array<{ seq: number; collection_id: string | null; created_at: string }>;
    return rows.map((r) => ({ seq: Number(r.seq), collectionId: r.collection_id, createdAt: r.created_at }));
  }

  /** Full rows, article body included, in the order of `seqs` (missing ones left out). */
  fullBySeqs(seqs: number[]): Promise<ItemRecord[]> {
    return rowsBySeqs(this.db, 'i.*', seqs);
  }

  // ---- capture queue ----

  async nextPendingArchive(): Promise<ItemRecord | null> {
    const row = (await this.db('reader_items').where({ archive_state: 'pending' }).orderBy('updated_at').first()) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  async nextPendingThumbnail(): Promise<ItemRecord | null> {
    const row = (await this.db('reader_items').where({ thumbnail_state: 'pending' }).orderBy('updated_at').first()) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Startup: a capture cut by a crash or shutdown goes back to the queue. */
  async requeueInterrupted(): Promise<number> {
    return this.db('reader_items').where({ archive_state: 'fetching' }).update({ archive_state: 'pending' });
  }

  // ---- change monitor ----

  /** Every item with autoUpdate on, with what decides whether it is due (the monitor decides). */
  async monitoredItems(): Promise<MonitoredItem[]> {
    const rows = await this.db('reader_items').where('auto_update', true).select<Array<{ id: string; auto_update_interval_mins: number | null; last_checked_at: string | null }>>('id', 'auto_update_interval_mins', 'last_checked_at');
    return rows.map((r) => ({ id: r.id, autoUpdateIntervalMins: r.auto_update_interval_mins, lastCheckedAt: r.last_checked_at }));
  }

  /** Applies a successful capture and records the check in the change history, atomically. */
  async applyCapture(id: string, patch: Partial<ItemRecord>, change: ChangeRecord | null): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const n = await trx('reader_items').where({ id }).update(toRow(patch));
      if (n === 0) return false;
      // ready only if nobody asked for another capture meanwhile (that one stays pending)
      await trx('reader_items').where({ id, archive_state: 'fetching' }).update({ archive_state: 'ready' });
      if (change)
        await trx('reader_item_changes').insert({
          item_id: change.itemId,
          checked_at: change.checkedAt,
          changed: change.changed,
          word_count: change.wordCount,
          previous_word_count: change.previousWordCount,
          excerpt: change.excerpt,
        });
      return true;
    });
  }

  async changes(itemId: string, limit = 200): Promise<ItemChange[]> {
    const rows = (await this.db('reader_item_changes')
      .where({ item_id: itemId })
      .orderBy([
        { column: 'checked_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit)) as Row[];
    return rows.map((r) => ({
      id: Number(r.id),
      checkedAt: String(r.checked_at),
      changed: Boolean(r.changed),
      wordCount: (r.word_count as number | null) ?? null,
      previousWordCount: (r.previous_word_count as number | null) ?? null,
      excerpt: (r.excerpt as string | null) ?? null,
    }));
  }

  // ---- tags ----

  /** The id of the owner's tag of that name (case-insensitive), created on first use. */
  private async tagIdIn(trx: Knex.Transaction, ownerId: string | null, name: string, now: string): Promise<string> {
    const existing = (await trx('reader_tags')
      .whereRaw("coalesce(owner_id, '') = ? AND lower(name) = lower(?)", [ownerId ?? '', name])
      .first('id')) as { id: string } | undefined;
    if (existing) return existing.id;
    const id = randomUUID();
    await trx('reader_tags').insert({ id, owner_id: ownerId, name, created_at: now });
    return id;
  }

  private async setTagsIn(trx: Knex.Transaction, itemId: string, ownerId: string | null, names: string[], now: string): Promise<void> {
    const unique = new Map<string, string>();
    for (const n of names) if (!unique.has(n.toLowerCase())) unique.set(n.toLowerCase(), n);
    const ids: string[] = [];
    for (const name of unique.values()) ids.push(await this.tagIdIn(trx, ownerId, name, now));
    await trx('reader_item_tags').where({ item_id: itemId }).delete();
    if (ids.length) await trx('reader_item_tags').insert(ids.map((tag_id) => ({ item_id: itemId, tag_id })));
  }

  /** Tag names per item id, sorted by name. */
  async tagsFor(itemIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    if (itemIds.length === 0) return out;
    const rows = (await this.db('reader_item_tags as it')
      .join('reader_tags as t', 't.id', 'it.tag_id')
      .whereIn('it.item_id', itemIds)
      .orderByRaw('lower(t.name)')
      .select('it.item_id', 't.name')) as Array<{ item_id: string; name: string }>;
    for (const r of rows) {
      const list = out.get(r.item_id) ?? [];
      list.push(r.name);
      out.set(r.item_id, list);
    }
    return out;
  }
}

