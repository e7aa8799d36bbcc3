// users.failed_pin_count and users.locked_until were never used: PIN locks are per device and live
// in pin_strikes (20261202120000). A plain DROP COLUMN: knex's SQLite dropColumn rebuilds the table,
// and dropping `users` while foreign keys are on would cascade into every member's rows.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  for (const column of ['failed_pin_count', 'locked_until']) {
    if (await knex.schema.hasColumn('users', column)) await knex.raw(`ALTER TABLE users DROP COLUMN ${column}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('users', 'failed_pin_count'))) {
    await knex.schema.alterTable('users', (t) => t.integer('failed_pin_count').notNullable().defaultTo(0));
  }
  if (!(await knex.schema.hasColumn('users', 'locked_until'))) {
    await knex.schema.alterTable('users', (t) => t.text('locked_until'));
  }
}
