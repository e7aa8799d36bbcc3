import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('users')) return;
  await knex.schema.createTable('users', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('role').notNullable().checkIn(['admin', 'member']);
    t.text('pin_hash').notNullable();
    t.text('avatar');
    t.integer('failed_pin_count').notNullable().defaultTo(0);
    t.text('locked_until');
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
  });
  // Profile names are how a household tells people apart on the picker: unique, ignoring case.
  await knex.raw('CREATE UNIQUE INDEX users_name_nocase ON users (name COLLATE NOCASE)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('users');
}
