// reader_items, reader_collections, reader_tags, reader_item_tags, reader_item_changes and the
// reader_fts index (kept in sync by the migration's triggers). Dumb queries: no authorization; the
// caller passes the viewer for scoping. Multi-row writes run in one transaction.
// Over 400 lines (about 620) because every query here shares the item column mapping (COLUMNS,
// toRecord, toRow) and the tag writes run inside the item transactions (insert, insertMany,
// update). The largest part is the listing and full-text search (filterSql to explainSearch,
// about 160 lines: bm25 ranking, the newest-first tier past RANK_ALL_MAX). The seams for a split,
// when the services are next reshaped: collections (about 70 lines) into their own store for
// collections-service.ts and transfer-service.ts, and the search into one for items-service.ts; each changes what the
// container hands those services.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Collection, ItemChange, ItemRecord, Tag } from './schema.js';

type Row = Record<string, unknown>;

export interface MonitoredItem {
  id: string;
  autoUpdateIntervalMins: number | null;
  lastCheckedAt: string | null;
}

/** camelCase field -> snake_case column, for every column of reader_items. */
const COLUMNS: Record<keyof ItemRecord, string> = {
  seq: 'seq',
  id: 'id',
  ownerId: 'owner_id',
  source: 'source',
  sourceRef: 'source_ref',
  type: 'type',
  url: 'url',
  title: 'title',
  byline: 'byline',
  siteName: 'site_name',
  faviconUrl: 'favicon_url',
  excerpt: 'excerpt',
  contentHtml: 'content_html',
  contentText: 'content_text',
  wordCount: 'word_count',
  readingMins: 'reading_mins',
  status: 'status',
  archiveState: 'archive_state',
  archiveError: 'archive_error',
  readAt: 'read_at',
  useProxy: 'use_proxy',
  useEmbed: 'use_embed',
  category: 'category',
  collectionId: 'collection_id',
  sortOrder: 'sort_order',
  autoUpdate: 'auto_update',
  autoUpdateIntervalMins: 'auto_update_interval_mins',
  alertOnChange: 'alert_on_change',
  contentHash: 'content_hash',
  lastCheckedAt: 'last_checked_at',
  contentChangedAt: 'content_changed_at',
  screenshotPath: 'screenshot_path',
  snapshotPath: 'snapshot_path',
  ogImagePath: 'og_image_path',
  thumbnailPath: 'thumbnail_path',
  thumbnailState: 'thumbnail_state',
  faviconPath: 'favicon_path',
  isAdult: 'is_adult',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};
const BOOLEAN_FIELDS = new Set<keyof ItemRecord>(['useProxy', 'useEmbed', 'autoUpdate', 'alertOnChange', 'isAdult']);
const HEAVY_FIELDS = new Set<keyof ItemRecord>(['contentHtml', 'contentText']);
const FIELDS = Object.keys(COLUMNS) as Array<keyof ItemRecord>;
/** List rows leave out the heavy article body. */
const LIST_COLUMNS = FIELDS.filter((f) => !HEAVY_FIELDS.has(f)).map((f) => `i.${COLUMNS[f]}`);

function toRecord(r: Row): ItemRecord {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = r[COLUMNS[f]];
    out[f] = BOOLEAN_FIELDS.has(f) ? Boolean(v) : v === undefined ? null : v;
  }
  return out as unknown as ItemRecord;
}

function toRow(patch: Partial<ItemRecord>): Row {
  const row: Row = {};
  for (const [k, v] of Object.entries(patch)) {
    const col = COLUMNS[k as keyof ItemRecord];
    if (col && v !== undefined && k !== 'seq') row[col] = v;
  }
  return row;
}

export interface ListFilter {
  /** Own items of this user plus global items. null = global items only (admin lists). */
  viewerId: string | null;
  status?: string;
  type?: string;
  collectionId?: string;
  tag?: string;
  /** An FTS5 MATCH expression already built from the user's words (see search.ts). */
  match?: string;
  excludeIds?: string[];
  limit: number;
  offset: number;
}

export type NewItem = Omit<ItemRecord, 'seq'>;

export interface ChangeRecord {
  itemId: string;
  checkedAt: string;
  changed: boolean;
  wordCount: number | null;
  previousWordCount: number | null;
  excerpt: string | null;
}

/** title > excerpt > text > url (> scope, which only restricts) */
export const BM25_WEIGHTS = [10, 4, 1, 0.5, 0] as const;
/** Rows per multi-row INSERT: 40 columns each stays far below SQLite's 32,766 bound parameters. */
const ITEMS_PER_INSERT = 100;
const LINKS_PER_INSERT = 500;

/** Searches with more matches than this are ordered by tiers instead of scoring every match. */
export const RANK_ALL_MAX = 1000;

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

  private filterSql(f: ListFilter, alias = 'i'): { sql: string; bindings: Knex.Value[] } {
    const parts: string[] = [];
    const b: Knex.Value[] = [];
    if (f.status) {
      parts.push(`${alias}.status = ?`);
      b.push(f.status);
    }
    if (f.type) {
      parts.push(`${alias}.type = ?`);
      b.push(f.type);
    }
    if (f.collectionId) {
      parts.push(`${alias}.collection_id = ?`);
      b.push(f.collectionId);
    }
    if (f.tag) {
      // the viewer's tag of that name and the global one, through the (owner, lower(name)) index
      parts.push(
        `${alias}.id IN (SELECT it.item_id FROM reader_item_tags it WHERE it.tag_id IN (SELECT t.id FROM reader_tags t WHERE coalesce(t.owner_id, '') IN (?, '') AND lower(t.name) = lower(?)))`,
      );
      b.push(f.viewerId ?? '', f.tag);
    }
    if (f.match) {
      parts.push(`${alias}.seq IN (SELECT rowid FROM reader_fts WHERE reader_fts MATCH ?)`);
      b.push(f.match);
    }
    if (f.excludeIds?.length) {
      parts.push(`${alias}.id NOT IN (SELECT value FROM json_each(?))`);
      b.push(JSON.stringify(f.excludeIds));
    }
    return { sql: parts.length ? ` AND ${parts.join(' AND ')}` : '', bindings: b };
  }

  /**
   * Global + own rows (or global only), without the article body, newest first (sortOrder, then
   * createdAt desc) read as two index-ordered scans (own, global) merged, so the default list
   * never sorts the library. With a match expression, see search().
   */
  async list(f: ListFilter): Promise<{ rows: ItemRecord[]; total: number }> {
    if (f.match) return this.search(f);
    const filter = this.filterSql(f);
    // With a tag or collection filter that filter's index is far narrower than the owner's: the
    // unary + keeps the planner from driving the query by owner.
    const o = f.tag || f.collectionId ? '+i.owner_id' : 'i.owner_id';
    const scope = f.viewerId === null ? `${o} IS NULL` : `(${o} = ? OR ${o} IS NULL)`;
    const scopeB = f.viewerId === null ? [] : [f.viewerId];
    const totalRow = (await this.db.raw(`SELECT count(*) AS n FROM reader_items i WHERE ${scope}${filter.sql}`, [...scopeB, ...filter.bindings])) as Array<{ n: number }>;
    const total = Number(totalRow[0]?.n ?? 0);
    if (total === 0 || f.offset >= total) return { rows: [], total };

    // Ordered ids first (index-only for the usual filters), then the 50 rows themselves.
    let order: Array<{ seq: number }>;
    if (f.viewerId === null) {
      order = (await this.db.raw(`SELECT i.seq FROM reader_items i WHERE ${o} IS NULL${filter.sql} ORDER BY i.sort_order, i.created_at DESC LIMIT ? OFFSET ?`, [
        ...filter.bindings,
        f.limit,
        f.offset,
      ])) as Array<{ seq: number }>;
    } else {
      const window = f.limit + f.offset;
      order = (await this.db.raw(
        `SELECT seq FROM (
           SELECT * FROM (SELECT i.seq, i.sort_order, i.created_at FROM reader_items i WHERE ${o} = ?${filter.sql} ORDER BY i.sort_order, i.created_at DESC LIMIT ?)
           UNION ALL
           SELECT * FROM (SELECT i.seq, i.sort_order, i.created_at FROM reader_items i WHERE ${o} IS NULL${filter.sql} ORDER BY i.sort_order, i.created_at DESC LIMIT ?)
         ) ORDER BY sort_order, created_at DESC LIMIT ? OFFSET ?`,
        [f.viewerId, ...filter.bindings, window, ...filter.bindings, window, f.limit, f.offset],
      )) as Array<{ seq: number }>;
    }
    return { rows: await this.bySeqs(order.map((r) => Number(r.seq))), total };
  }

  /** The FTS expression of the viewer's visible set: their scope token and the global one. */
  private scopeMatch(viewerId: string | null): string {
    return viewerId === null ? 'scope: "global"' : `scope: ("u${viewerId.replace(/[^0-9a-z]/gi, '').toLowerCase()}" OR "global")`;
  }

  private async ftsCount(match: string): Promise<number> {
    const rows = (await this.db.raw('SELECT count(*) AS n FROM reader_fts WHERE reader_fts MATCH ?', [match])) as Array<{ n: number }>;
    return Number(rows[0]?.n ?? 0);
  }

  private async ftsSeqs(match: string, order: 'rank' | 'recent', limit: number, offset: number): Promise<number[]> {
    if (limit <= 0) return [];
    const by = order === 'rank' ? `bm25(reader_fts, ${BM25_WEIGHTS.join(', ')}), rowid DESC` : 'rowid DESC';
    const rows = (await this.db.raw(`SELECT rowid AS seq FROM reader_fts WHERE reader_fts MATCH ? ORDER BY ${by} LIMIT ? OFFSET ?`, [match, limit, offset])) as Array<{ seq: number }>;
    return rows.map((r) => r.seq);
  }

  private bySeqs(seqs: number[]): Promise<ItemRecord[]> {
    return this.rowsBySeqs(LIST_COLUMNS.join(', '), seqs);
  }

  /** `columns` of the items in the order of `seqs` (missing ones left out). */
  private async rowsBySeqs(columns: string, seqs: number[]): Promise<ItemRecord[]> {
    if (seqs.length === 0) return [];
    const rows = (await this.db.raw(`SELECT ${columns} FROM reader_items i WHERE i.seq IN (SELECT value FROM json_each(?))`, [JSON.stringify(seqs)])) as Row[];
    const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
    return seqs.flatMap((s) => (bySeq.has(s) ? [toRecord(bySeq.get(s)!)] : []));
  }

  /**
   * Full-text search. The visible set is part of the FTS match (scope tokens), so counting and
   * paging never touch reader_items. Up to RANK_ALL_MAX matches are ranked by bm25 (title >
   * excerpt > text > url). Beyond that (a very common word in a big library) scoring every match
   * would cost tens of milliseconds, so the order is tiered instead: matches in the title first
   * (bm25 when up to RANK_ALL_MAX, else newest first), then the rest newest first, which FTS5
   * reads straight from its index.
   * Filters (status, type, collection, tag, hidden) join reader_items.
   */
  private async search(f: ListFilter): Promise<{ rows: ItemRecord[]; total: number }> {
    const terms = f.match!;
    const scope = this.scopeMatch(f.viewerId);
    const all = `{title excerpt content_text url}: (${terms}) AND ${scope}`;
    const hasFilters = Boolean(f.status || f.type || f.collectionId || f.tag || f.excludeIds?.length);
    if (!hasFilters) {
      const total = await this.ftsCount(all);
      if (total === 0 || f.offset >= total) return { rows: [], total };
      if (total <= RANK_ALL_MAX) return { rows: await this.bySeqs(await this.ftsSeqs(all, 'rank', f.limit, f.offset)), total };
      const inTitle = `{title}: (${terms}) AND ${scope}`;
      // a word in most titles (an imported file's "Article number ..."): the title tier is itself
      // too big to score, so it too is newest first
      const titleOrder = (await this.ftsSeqs(inTitle, 'recent', 1, RANK_ALL_MAX)).length > 0 ? 'recent' : 'rank';
      const seqs = await this.ftsSeqs(inTitle, titleOrder, f.limit, f.offset);
      if (seqs.length < f.limit) {
        // the title tier ends on this page: how many of it came before decides where the rest starts
        const t = seqs.length > 0 || f.offset === 0 ? f.offset + seqs.length : await this.ftsCount(inTitle);
        seqs.push(...(await this.ftsSeqs(`${all} NOT {title}: (${terms})`, 'recent', f.limit - seqs.length, Math.max(0, f.offset - t))));
      }
      return { rows: await this.bySeqs(seqs), total };
    }
    const filter = this.filterSql({ ...f, match: all });
    const scopeSql = f.viewerId === null ? 'i.owner_id IS NULL' : '(i.owner_id = ? OR i.owner_id IS NULL)';
    const scopeB = f.viewerId === null ? [] : [f.viewerId];
    const totalRow = (await this.db.raw(`SELECT count(*) AS n FROM reader_items i WHERE ${scopeSql}${filter.sql}`, [...scopeB, ...filter.bindings])) as Array<{ n: number }>;
    const total = Number(totalRow[0]?.n ?? 0);
    if (total === 0 || f.offset >= total) return { rows: [], total };
    const cols = LIST_COLUMNS.join(', ');
    let rows: Row[];
    if (total <= RANK_ALL_MAX) {
      const rest = this.filterSql({ ...f, match: undefined });
      rows = (await this.db.raw(
        `SELECT ${cols} FROM (SELECT rowid AS seq, bm25(reader_fts, ${BM25_WEIGHTS.join(', ')}) AS rank FROM reader_fts WHERE reader_fts MATCH ?) f
         JOIN reader_items i ON i.seq = f.seq
         WHERE ${scopeSql}${rest.sql}
         ORDER BY f.rank, i.seq DESC LIMIT ? OFFSET ?`,
        [all, ...scopeB, ...rest.bindings, f.limit, f.offset],
      )) as Row[];
    } else {
      rows = (await this.db.raw(`SELECT ${cols} FROM reader_items i WHERE ${scopeSql}${filter.sql} ORDER BY i.seq DESC LIMIT ? OFFSET ?`, [...scopeB, ...filter.bindings, f.limit, f.offset])) as Row[];
    }
    return { rows: rows.map(toRecord), total };
  }

  /** The query plans of an unfiltered search (count, rank), for tests that check only the FTS index is read. */
  async explainSearch(terms: string, viewerId: string): Promise<string[]> {
    const all = `{title excerpt content_text url}: (${terms}) AND ${this.scopeMatch(viewerId)}`;
    const plan = async (sql: string) => ((await this.db.raw(`EXPLAIN QUERY PLAN ${sql}`, [all])) as Array<{ detail: string }>).map((r) => r.detail);
    return [
      ...(await plan('SELECT count(*) AS n FROM reader_fts WHERE reader_fts MATCH ?')),
      ...(await plan(`SELECT rowid AS seq FROM reader_fts WHERE reader_fts MATCH ? ORDER BY bm25(reader_fts, ${BM25_WEIGHTS.join(', ')}), rowid DESC LIMIT 50`)),
    ];
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
    return this.rowsBySeqs('i.*', seqs);
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

/** A new item row with every column at its default, `base` on top (the one place the defaults live). */
export function newItemRecord(base: Partial<ItemRecord> & Pick<ItemRecord, 'ownerId' | 'type' | 'url'>, now: string): NewItem {
  return {
    id: randomUUID(),
    source: base.type === 'offline' ? 'article' : 'bookmark',
    sourceRef: null,
    title: null,
    byline: null,
    siteName: null,
    faviconUrl: null,
    excerpt: null,
    contentHtml: null,
    contentText: null,
    wordCount: null,
    readingMins: null,
    status: 'unread',
    archiveState: base.type === 'offline' ? 'pending' : 'none',
    archiveError: null,
    readAt: null,
    useProxy: false,
    useEmbed: false,
    category: 'Other',
    collectionId: null,
    sortOrder: 0,
    autoUpdate: false,
    autoUpdateIntervalMins: null,
    alertOnChange: false,
    contentHash: null,
    lastCheckedAt: null,
    contentChangedAt: null,
    screenshotPath: null,
    snapshotPath: null,
    ogImagePath: null,
    thumbnailPath: null,
    thumbnailState: base.type === 'live' ? 'pending' : 'none',
    faviconPath: null,
    isAdult: false,
    createdAt: now,
    updatedAt: now,
    ...base,
  };
}
