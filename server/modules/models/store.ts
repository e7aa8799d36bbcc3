// model_access: each member's allowed chat models. A miss (no row) is `null`: every chat model.
import type { Knex } from 'knex';

interface Row {
  user_id: string;
  allowed: string;
  updated_at: string;
}

function parseAllowed(s: string): string[] {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export class ModelAccessStore {
  constructor(private readonly db: Knex) {}

  /** The member's allowed models, or null when they may use every chat model. */
  async get(userId: string): Promise<string[] | null> {
    const row = await this.db<Row>('model_access').where({ user_id: userId }).first();
    return row ? parseAllowed(row.allowed) : null;
  }

  /** Every stored allow-list, by user id. */
  async all(): Promise<Map<string, string[]>> {
    const rows = await this.db<Row>('model_access').select();
    return new Map(rows.map((r) => [r.user_id, parseAllowed(r.allowed)]));
  }

  /** Stores the set, or removes the row (every chat model) for null. */
  async set(userId: string, allowed: string[] | null, now: string): Promise<void> {
    if (allowed === null) {
      await this.remove(userId);
      return;
    }
    await this.db<Row>('model_access')
      .insert({ user_id: userId, allowed: JSON.stringify(allowed), updated_at: now })
      .onConflict('user_id')
      .merge(['allowed', 'updated_at']);
  }

  async remove(userId: string): Promise<void> {
    await this.db<Row>('model_access').where({ user_id: userId }).delete();
  }
}
