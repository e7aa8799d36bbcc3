// Music (issue 39): a member's generated pieces, private to them. A row is written only once the
// piece's audio file is on disk, so a failed or cut generation leaves nothing behind.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('music_pieces', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('prompt').notNullable();
    t.float('seconds').notNullable();
    t.integer('seed').notNullable();
    t.boolean('is_adult').notNullable().defaultTo(false);
    t.text('file_path').notNullable();
    t.text('content_type').notNullable();
    t.integer('bytes').notNullable();
    t.text('created_at').notNullable();
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('music_pieces');
}
