import type { Knex } from 'knex';

// Chat memory (issue 32): short facts a member asked the assistant to remember, theirs alone, gone
// with their profile. Whether the household uses memory at all is an app setting.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('chat_memories', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('text').notNullable();
    t.text('created_at').notNullable();
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('chat_memories');
}
