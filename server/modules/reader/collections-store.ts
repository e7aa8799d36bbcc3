// A member's collections (reader_collections) and the tags they have used (reader_tags), as lists
// and named groups: the tags themselves are written with their items (store.ts). Dumb queries: no
// authorization; the caller passes the owner.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Row } from './item-rows.js';
import type { Collection, Tag } from './schema.js';

export class ReaderCollectionsStore {
  constructor(private readonly db: Knex) {}

  // ---- tags ----

  async listTags(ownerId: string): Promise<Tag[]> {
    const rows = (await this.db.raw(
      `SELECT t.id, t.name, (SELECT count(*) FROM reader_item_tags it WHERE it.tag_id = t.id) AS itemCount
       FROM reader_tags t WHERE t.owner_id = ? ORDER BY lower(t.name)`,
      [ownerId],
    )) as Array<{ id: string; name: string; itemCount: number }>;
    return rows.map((r) => ({ id: r.id, name: r.name, itemCount: Number(r.itemCount) }));
  }

  // ---- collections ----

  private toCollection(r: Row): Collection {
    return {
      id: String(r.id),
      name: String(r.name),
      icon: (r.icon as string | null) ?? null,
      color: (r.color as string | null) ?? null,
      sortOrder: Number(r.sort_order),
      itemCount: Number(r.item_count ?? 0),
    };
  }

  async listCollections(ownerId: string): Promise<Collection[]> {
    const rows = (await this.db.raw(
      `SELECT c.*, (SELECT count(*) FROM reader_items i WHERE i.collection_id = c.id) AS item_count
       FROM reader_collections c WHERE c.owner_id = ? ORDER BY c.sort_order, lower(c.name)`,
      [ownerId],
    )) as Row[];
    return rows.map((r) => this.toCollection(r));
  }

  async findCollection(ownerId: string, id: string): Promise<Collection | null> {
    const rows = (await this.db.raw(
      `SELECT c.*, (SELECT count(*) FROM reader_items i WHERE i.collection_id = c.id) AS item_count FROM reader_collections c WHERE c.owner_id = ? AND c.id = ?`,
      [ownerId, id],
    )) as Row[];
    return rows[0] ? this.toCollection(rows[0]) : null;
  }

  async findCollectionByName(ownerId: string, name: string): Promise<Collection | null> {
    const row = (await this.db('reader_collections').where({ owner_id: ownerId }).whereRaw('lower(name) = lower(?)', [name]).first('id')) as { id: string } | undefined;
    return row ? this.findCollection(ownerId, row.id) : null;
  }

  /** Inserts a collection; null when the owner already has one of that name (case-insensitive). */
  async insertCollection(c: { ownerId: string; name: string; icon: string | null; color: string | null; sortOrder: number }, now: string): Promise<Collection | null> {
    const id = randomUUID();
    try {
      await this.db('reader_collections').insert({ id, owner_id: c.ownerId, name: c.name, icon: c.icon, color: c.color, sort_order: c.sortOrder, created_at: now, updated_at: now });
    } catch (err) {
      if (String((err as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) return null;
      throw err;
    }
    return this.findCollection(c.ownerId, id);
  }

  /** 'missing' | 'duplicate' | the updated collection. */
  async updateCollection(ownerId: string, id: string, patch: { name?: string; icon?: string | null; color?: string | null; sortOrder?: number }, now: string): Promise<Collection | 'missing' | 'duplicate'> {
    const row: Row = { updated_at: now };
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.icon !== undefined) row.icon = patch.icon;
    if (patch.color !== undefined) row.color = patch.color;
    if (patch.sortOrder !== undefined) row.sort_order = patch.sortOrder;
    try {
      const n = await this.db('reader_collections').where({ id, owner_id: ownerId }).update(row);
      if (n === 0) return 'missing';
    } catch (err) {
      if (String((err as { code?: string }).code).startsWith('SQLITE_CONSTRAINT')) return 'duplicate';
      throw err;
    }
    return (await this.findCollection(ownerId, id)) ?? 'missing';
  }

  /** Deletes the collection; its items stay with collection_id null (FK ON DELETE SET NULL). */
  async deleteCollection(ownerId: string, id: string): Promise<boolean> {
    return (await this.db('reader_collections').where({ id, owner_id: ownerId }).delete()) > 0;
  }
}
