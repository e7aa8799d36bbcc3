// Voice memos (issue 34): a member's recording, kept as the file they sent, and its transcript,
// written in the background (status transcribing → ready or failed).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('voice_memos', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('title');
    t.text('status').notNullable();
    t.text('text');
    t.float('duration_seconds');
    t.text('mime').notNullable();
    t.integer('bytes').notNullable();
    t.text('error');
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.index(['user_id', 'created_at']);
    t.index(['status']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('voice_memos');
}
