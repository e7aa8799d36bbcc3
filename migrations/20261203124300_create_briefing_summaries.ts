// Today (issue 33): the morning briefing's spoken-style summary, written by the household chat model
// from the cached facts only, kept once per member per morning (a restart does not ask the model again).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('briefing_summaries', (t) => {
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('day').notNullable();
    t.text('summary').notNullable();
    t.text('model').notNullable();
    t.text('created_at').notNullable();
    t.primary(['user_id', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('briefing_summaries');
}
