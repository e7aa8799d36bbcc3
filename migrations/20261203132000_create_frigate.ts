import type { Knex } from 'knex';

// Camera events from Frigate (issue 37): the household's recorder (its password kept here only, never
// answered), who is told about events, and the events seen (their snapshots are proxied, not stored).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('frigate_connection', (t) => {
    t.text('id').primary();
    t.text('url').notNullable();
    t.text('user');
    t.text('password');
    t.text('mqtt_url');
    t.text('notify').notNullable();
    t.text('version');
    t.text('updated_at').notNullable();
  });
  await knex.schema.createTable('frigate_events', (t) => {
    t.text('id').primary();
    t.text('camera').notNullable();
    t.text('label').notNullable();
    t.float('start_time').notNullable();
    t.boolean('has_snapshot').notNullable();
    t.text('created_at').notNullable();
    t.index(['start_time']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('frigate_events');
  await knex.schema.dropTable('frigate_connection');
}
