// Storage (issue 39): one snapshot a day of the bytes Hearth's data folder holds, for the admin
// Storage page's 30-day trend.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('storage_snapshots', (t) => {
    /** YYYY-MM-DD (UTC). */
    t.string('day').primary();
    t.bigInteger('used_bytes').notNullable();
    t.string('taken_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('storage_snapshots');
}
