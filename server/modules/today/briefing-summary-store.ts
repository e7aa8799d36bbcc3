// briefing_summaries: the chat model's spoken-style summary of a member's morning briefing, one row
// per member per day.
import type { Knex } from 'knex';

export interface SummaryRecord {
  userId: string;
  day: string;
  summary: string;
  model: string;
  createdAt: string;
}

export class BriefingSummaryStore {
  constructor(private readonly db: Knex) {}

  async get(userId: string, day: string): Promise<SummaryRecord | null> {
    const row = await this.db('briefing_summaries').where({ user_id: userId, day }).first();
    return row ? { userId: row.user_id, day: row.day, summary: row.summary, model: row.model, createdAt: row.created_at } : null;
  }

  /** Keeps the morning's summary; the member's older ones go. */
  async put(r: SummaryRecord): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('briefing_summaries').where({ user_id: r.userId }).whereNot({ day: r.day }).delete();
      await trx('briefing_summaries').insert({ user_id: r.userId, day: r.day, summary: r.summary, model: r.model, created_at: r.createdAt }).onConflict(['user_id', 'day']).merge();
    });
  }
}
