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
  /** The stored text of keys read since `version` last moved (null: no row). */
  private readonly kept = new Map<string, string | null>();
  private keptAt = -1;

  /**
   * `version` (tableWrites over app_settings) lets reads be answered from memory until a statement
   * writes the table: settings are read on every chat answer and most pages (the chosen models,
   * the feature switches), written rarely. Each read parses the text again, so a caller that
   * changes what it got changes only its own copy.
   */
  constructor(
    private readonly db: Knex,
    private readonly now: () => Date,
    private readonly version?: () => number,
  ) {}

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const at = this.version?.();
    if (at !== undefined && at !== this.keptAt) {
      this.kept.clear();
      this.keptAt = at;
    }
    if (at !== undefined && this.kept.has(key)) return parse(this.kept.get(key)) as T | undefined;
    const row = await this.db('app_settings').where({ key }).first<{ value: string } | undefined>('value');
    // kept only when nothing wrote the table while the read was under way
    if (at !== undefined && this.version?.() === at) this.kept.set(key, row?.value ?? null);
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
