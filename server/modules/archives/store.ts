// zim_archives: one row per installed source.
import type { Knex } from 'knex';
import type { Level } from '../content/schema.js';
import type { ArchiveRecord } from './schema.js';

interface Row {
  id: number;
  source_id: string;
  variant_key: string;
  book_name: string | null;
  file_path: string;
  file_size_bytes: number;
  zim_date: string | null;
  downloaded_at: string;
  verified_at: string | null;
  quarantined_at: string | null;
  quarantine_reason: string | null;
  created_at: string;
  updated_at: string;
  content_level: Level;
}

const toRecord = (r: Row): ArchiveRecord => ({
  id: r.id,
  sourceId: r.source_id,
  variantKey: r.variant_key,
  bookName: r.book_name,
  filePath: r.file_path,
  fileSizeBytes: r.file_size_bytes,
  zimDate: r.zim_date,
  downloadedAt: r.downloaded_at,
  verifiedAt: r.verified_at,
  quarantinedAt: r.quarantined_at,
  quarantineReason: r.quarantine_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  contentLevel: r.content_level,
});

export class ArchivesStore {
  constructor(private readonly db: Knex) {}

  async list(): Promise<ArchiveRecord[]> {
    return ((await this.db('zim_archives').select('*').orderBy('source_id')) as Row[]).map(toRecord);
  }

  async find(sourceId: string): Promise<ArchiveRecord | null> {
    const row = (await this.db('zim_archives').where({ source_id: sourceId }).first()) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Inserts or replaces the row of a source (a new variant replaces the old one). */
  async upsert(r: Omit<ArchiveRecord, 'id' | 'createdAt' | 'updatedAt' | 'bookName' | 'quarantinedAt' | 'quarantineReason' | 'contentLevel'>, now: string): Promise<void> {
    await this.db('zim_archives')
      .insert({
        source_id: r.sourceId,
        variant_key: r.variantKey,
        book_name: null,
        file_path: r.filePath,
        file_size_bytes: r.fileSizeBytes,
        zim_date: r.zimDate,
        downloaded_at: r.downloadedAt,
        verified_at: r.verifiedAt,
        quarantined_at: null,
        quarantine_reason: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict('source_id')
      .merge(['variant_key', 'book_name', 'file_path', 'file_size_bytes', 'zim_date', 'downloaded_at', 'verified_at', 'quarantined_at', 'quarantine_reason', 'updated_at']);
  }

  async update(sourceId: string, patch: Partial<Pick<ArchiveRecord, 'bookName' | 'verifiedAt' | 'quarantinedAt' | 'quarantineReason'>>, now: string): Promise<void> {
    const row: Record<string, unknown> = { updated_at: now };
    if (patch.bookName !== undefined) row.book_name = patch.bookName;
    if (patch.verifiedAt !== undefined) row.verified_at = patch.verifiedAt;
    if (patch.quarantinedAt !== undefined) row.quarantined_at = patch.quarantinedAt;
    if (patch.quarantineReason !== undefined) row.quarantine_reason = patch.quarantineReason;
    await this.db('zim_archives').where({ source_id: sourceId }).update(row);
  }

  async setContentLevel(sourceId: string, level: Level, now: string): Promise<boolean> {
    return (await this.db('zim_archives').where({ source_id: sourceId }).update({ content_level: level, updated_at: now })) > 0;
  }

  async delete(sourceId: string): Promise<boolean> {
    return (await this.db('zim_archives').where({ source_id: sourceId }).delete()) > 0;
  }
}
