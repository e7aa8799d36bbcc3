// The two key-value stores the spec relies on: app settings (household-wide) and user
// preferences (per user and key). Values are JSON; a missing key reads as undefined.
import type { Knex } from 'knex';

function parse(value: string | null | undefined): unknown {
  if (value === null || value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

export class AppSettingsStore {
  constructor(
    private readonly db: Knex,
    private readonly now: () => Date,
  ) {}

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const row = await this.db('app_settings').where({ key }).first<{ value: string } | undefined>('value');
    return parse(row?.value) as T | undefined;
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.db('app_settings')
      .insert({ key, value: JSON.stringify(value), updated_at: this.now().toISOString() })
      .onConflict('key')
      .merge();
  }

  async delete(key: string): Promise<void> {
    await this.db('app_settings').where({ key }).delete();
  }
}

export class UserPreferencesStore {
  constructor(
    private readonly db: Knex,
    private readonly now: () => Date,
  ) {}

  async get<T = unknown>(userId: string, key: string): Promise<T | undefined> {
    const row = await this.db('user_preferences').where({ user_id: userId, key }).first<{ value: string } | undefined>('value');
    return parse(row?.value) as T | undefined;
  }

  async set(userId: string, key: string, value: unknown): Promise<void> {
    await this.db('user_preferences')
      .insert({ user_id: userId, key, value: JSON.stringify(value), updated_at: this.now().toISOString() })
      .onConflict(['user_id', 'key'])
      .merge();
  }

  async delete(userId: string, key: string): Promise<void> {
    await this.db('user_preferences').where({ user_id: userId, key }).delete();
  }

  async list(userId: string): Promise<Record<string, unknown>> {
    const rows = await this.db('user_preferences').where({ user_id: userId }).select<{ key: string; value: string }[]>('key', 'value');
    return Object.fromEntries(rows.map((r) => [r.key, parse(r.value)]));
  }
}
