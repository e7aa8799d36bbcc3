import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('sessions')) return;
  await knex.schema.createTable('sessions', (t) => {
    t.text('id').primary();
    // sha256 of the opaque cookie token; the token itself is never stored.
    t.text('token_hash').notNullable().unique();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('created_at').notNullable();
    t.text('last_seen_at').notNullable();
    t.text('expires_at').notNullable();
    t.text('user_agent');
    t.index(['user_id']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sessions');
}
