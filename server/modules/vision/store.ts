// vision_results: the analyses members chose to keep, one row each, rows mapped to camelCase.
import type { Knex } from 'knex';
import type { StoredVisionResult, VisionTask } from './schema.js';

export interface VisionResultRow extends StoredVisionResult {
  userId: string;
}

interface Db {
  id: string;
  user_id: string;
  task: string;
  model: string;
  result_json: string;
  ocr_text: string | null;
  created_at: string;
}

const toRow = (r: Db): VisionResultRow => ({
  id: r.id,
  userId: r.user_id,
  task: r.task as VisionTask,
  model: r.model,
  result: JSON.parse(r.result_json) as Record<string, unknown>,
  ocrText: r.ocr_text,
  createdAt: r.created_at,
});

export class VisionStore {
  constructor(private readonly db: Knex) {}

  async insert(r: VisionResultRow): Promise<void> {
    await this.db('vision_results').insert({ id: r.id, user_id: r.userId, task: r.task, model: r.model, result_json: JSON.stringify(r.result), ocr_text: r.ocrText, created_at: r.createdAt });
  }

  async get(id: string): Promise<VisionResultRow | null> {
    const row = (await this.db('vision_results').where({ id }).first()) as Db | undefined;
    return row ? toRow(row) : null;
  }

  async list(userId: string, limit: number): Promise<VisionResultRow[]> {
    const rows = (await this.db('vision_results').where({ user_id: userId }).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit)) as Db[];
    return rows.map(toRow);
  }

  async remove(id: string): Promise<void> {
    await this.db('vision_results').where({ id }).delete();
  }

  async count(): Promise<number> {
    const row = (await this.db('vision_results').count({ n: '*' }).first()) as { n: number } | undefined;
    return Number(row?.n ?? 0);
  }
}
