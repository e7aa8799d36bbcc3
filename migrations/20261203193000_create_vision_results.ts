// Vision (issue 39): the analyses a member asked Hearth to keep (`store: true`); nothing else of an
// analysis is written. Rows go with their member.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('vision_results', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('task').notNullable();
    t.text('model').notNullable();
    t.text('result_json').notNullable();
    t.text('ocr_text');
    t.text('created_at').notNullable();
    t.index(['user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('vision_results');
}
