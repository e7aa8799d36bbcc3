// Household tools (issue 38): the file converter's results (each member's own, kept 24 hours) and
// the speed test's stored results (one row per run, a member's device named as they gave it).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('converter_files', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('name').notNullable();
    t.string('mime').notNullable();
    t.integer('bytes').notNullable();
    t.string('created_at').notNullable();
    t.string('expires_at').notNullable().index();
  });
  await knex.schema.createTable('speedtest_results', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.float('download_mbps').notNullable();
    t.float('upload_mbps').notNullable();
    t.float('ping_ms').notNullable();
    t.float('jitter_ms').notNullable();
    t.string('device').notNullable();
    t.string('created_at').notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('speedtest_results');
  await knex.schema.dropTable('converter_files');
}
