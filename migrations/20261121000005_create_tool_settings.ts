import type { Knex } from 'knex';

// Per-tool stored values. The enabled state is the row with key "__enabled" and a JSON boolean
// value; no row means enabled (tools are opt-out).
export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('tool_settings')) return;
  await knex.schema.createTable('tool_settings', (t) => {
    t.text('tool_id').notNullable();
    t.text('key').notNullable();
    t.text('value').notNullable();
    t.text('updated_at').notNullable();
    t.primary(['tool_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('tool_settings');
}
