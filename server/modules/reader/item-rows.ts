// The reader_items row mapping shared by the reader's stores: every column of reader_items with
// its camelCase field, rows to records and back, and the defaults of a new item.
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { ItemRecord } from './schema.js';

export type Row = Record<string, unknown>;

export type NewItem = Omit<ItemRecord, 'seq'>;

/** camelCase field -> snake_case column, for every column of reader_items. */
export const COLUMNS: Record<keyof ItemRecord, string> = {
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
export const LIST_COLUMNS = FIELDS.filter((f) => !HEAVY_FIELDS.has(f)).map((f) => `i.${COLUMNS[f]}`);

export function toRecord(r: Row): ItemRecord {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = r[COLUMNS[f]];
    out[f] = BOOLEAN_FIELDS.has(f) ? Boolean(v) : v === undefined ? null : v;
  }
  return out as unknown as ItemRecord;
}

/** `columns` of the items in the order of `seqs` (missing ones left out). */
export async function rowsBySeqs(db: Knex, columns: string, seqs: number[]): Promise<ItemRecord[]> {
  if (seqs.length === 0) return [];
  const rows = (await db.raw(`SELECT ${columns} FROM reader_items i WHERE i.seq IN (SELECT value FROM json_each(?))`, [JSON.stringify(seqs)])) as Row[];
  const bySeq = new Map(rows.map((r) => [Number(r.seq), r]));
  return seqs.flatMap((s) => (bySeq.has(s) ? [toRecord(bySeq.get(s)!)] : []));
}

export function toRow(patch: Partial<ItemRecord>): Row {
  const row: Row = {};
  for (const [k, v] of Object.entries(patch)) {
    const col = COLUMNS[k as keyof ItemRecord];
    if (col && v !== undefined && k !== 'seq') row[col] = v;
  }
  return row;
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
