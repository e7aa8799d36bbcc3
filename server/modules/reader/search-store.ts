// The reader's listing and full-text search over reader_items and the reader_fts index (kept in
// sync by the migration's triggers): the default newest-first list read as index-ordered scans,
// and bm25-ranked search with the newest-first tier past RANK_ALL_MAX. Dumb queries: no
// authorization; the caller passes the viewer for scoping.
import type { Knex } from 'knex';
import { LIST_COLUMNS, rowsBySeqs, toRecord, type Row } from './item-rows.js';
import type { ItemRecord } from './schema.js';

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

/** title > excerpt > text > url (> scope, which only restricts) */
export const BM25_WEIGHTS = [10, 4, 1, 0.5, 0] as const;
/** Searches with more matches than this are ordered by tiers instead of scoring every match. */
export const RANK_ALL_MAX = 1000;

export class ReaderSearchStore {
  constructor(private readonly db: Knex) {}

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
    return rowsBySeqs(this.db, LIST_COLUMNS.join(', '), seqs);
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
}
