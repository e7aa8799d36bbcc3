import type { Knex } from 'knex';

// Home Assistant control (issue 37): the household's one connection (its token kept here only), the
// entities an admin exposed (and the extra ones they guard), each member's rights, and the activity
// log of every action asked for.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('home_assistant_connection', (t) => {
    t.text('id').primary();
    t.text('url').notNullable();
    t.text('token').notNullable();
    t.text('version');
    t.text('updated_at').notNullable();
    t.text('updated_by').references('id').inTable('users').onDelete('SET NULL');
  });
  await knex.schema.createTable('home_assistant_exposed', (t) => {
    t.text('entity_id').primary();
    t.boolean('guarded').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('home_assistant_rights', (t) => {
    t.text('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.text('allowed').notNullable();
    t.text('guarded').notNullable();
    t.text('updated_at').notNullable();
  });
  await knex.schema.createTable('home_assistant_activity', (t) => {
    t.increments('id').primary();
    t.text('user_id').references('id').inTable('users').onDelete('SET NULL');
    t.text('user_name').notNullable();
    t.text('entity_id').notNullable();
    t.text('service').notNullable();
    t.text('source').notNullable();
    t.text('outcome').notNullable();
    t.text('created_at').notNullable();
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('home_assistant_activity');
  await knex.schema.dropTable('home_assistant_rights');
  await knex.schema.dropTable('home_assistant_exposed');
  await knex.schema.dropTable('home_assistant_connection');
}
