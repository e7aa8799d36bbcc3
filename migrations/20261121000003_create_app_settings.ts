import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('app_settings')) return;
  await knex.schema.createTable('app_settings', (t) => {
    t.text('key').primary();
    t.text('value').notNullable();
    t.text('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('app_settings');
}
