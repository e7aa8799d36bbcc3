import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('user_preferences')) return;
  await knex.schema.createTable('user_preferences', (t) => {
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('value').notNullable();
    t.text('updated_at').notNullable();
    t.primary(['user_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('user_preferences');
}
