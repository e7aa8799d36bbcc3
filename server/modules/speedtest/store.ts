// Every query of speedtest_results; rows mapped to camelCase.
import type { Knex } from 'knex';
import type { SpeedtestResult } from './schema.js';

export interface SpeedtestRow extends SpeedtestResult {
  userId: string;
}

interface Raw {
  id: string;
  user_id: string;
  download_mbps: number;
  upload_mbps: number;
  ping_ms: number;
  jitter_ms: number;
  device: string;
  created_at: string;
}

const toRow = (r: Raw): SpeedtestRow => ({
  id: r.id,
  userId: r.user_id,
  downloadMbps: r.download_mbps,
  uploadMbps: r.upload_mbps,
  pingMs: r.ping_ms,
  jitterMs: r.jitter_ms,
  device: r.device,
  createdAt: r.created_at,
});

export class SpeedtestStore {
  constructor(private readonly db: Knex) {}

  async insert(r: SpeedtestRow): Promise<void> {
    await this.db('speedtest_results').insert({
      id: r.id,
      user_id: r.userId,
      download_mbps: r.downloadMbps,
      upload_mbps: r.uploadMbps,
      ping_ms: r.pingMs,
      jitter_ms: r.jitterMs,
      device: r.device,
      created_at: r.createdAt,
    });
  }

  /** Newest first; one member's, or everyone's. */
  async list(limit: number, userId?: string): Promise<SpeedtestRow[]> {
    const q = this.db('speedtest_results').orderBy([{ column: 'created_at', order: 'desc' }, { column: 'rowid', order: 'desc' }]).limit(limit);
    if (userId) void q.where({ user_id: userId });
    return ((await q) as Raw[]).map(toRow);
  }
}
