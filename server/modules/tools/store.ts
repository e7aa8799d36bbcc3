// tool_settings: per-tool stored values; the enabled state is the "__enabled" row.
import type { Knex } from 'knex';
import { ENABLED_KEY } from './schema.js';

export class ToolSettingsStore {
  constructor(
    private readonly db: Knex,
    private readonly now: () => Date,
  ) {}

  /** Stored enabled values by tool id (tools without a row are absent). */
  async enabledMap(): Promise<Map<string, boolean>> {
    const rows = await this.db('tool_settings').where({ key: ENABLED_KEY }).select<{ tool_id: string; value: string }[]>('tool_id', 'value');
    return new Map(rows.map((r) => [r.tool_id, JSON.parse(r.value) === true]));
  }

  async setEnabled(toolId: string, enabled: boolean): Promise<void> {
    await this.db('tool_settings')
      .insert({ tool_id: toolId, key: ENABLED_KEY, value: JSON.stringify(enabled), updated_at: this.now().toISOString() })
      .onConflict(['tool_id', 'key'])
      .merge();
  }
}
