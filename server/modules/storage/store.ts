// Every query of storage_snapshots: one row a day, the data folder's used bytes that day.
import type { Knex } from 'knex';
import type { TrendPoint } from './schema.js';

export class StorageStore {
  constructor(private readonly db: Knex) {}

  /** Today's snapshot, replacing an earlier one of the same day. */
  async upsert(day: string, usedBytes: number, takenAt: string): Promise<void> {
    await this.db('storage_snapshots').insert({ day, used_bytes: usedBytes, taken_at: takenAt }).onConflict('day').merge();
  }

  /** Snapshots from `fromDay` on, oldest first. */
  async since(fromDay: string): Promise<TrendPoint[]> {
    const rows = (await this.db('storage_snapshots').where('day', '>=', fromDay).orderBy('day')) as Array<{ day: string; used_bytes: number }>;
    return rows.map((r) => ({ day: r.day, usedBytes: r.used_bytes }));
  }

  /** Forgets snapshots older than `beforeDay`. */
  async prune(beforeDay: string): Promise<void> {
    await this.db('storage_snapshots').where('day', '<', beforeDay).delete();
  }
}
