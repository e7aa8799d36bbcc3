import type { Knex } from 'knex';

// Smart home favourites (issue 37): the devices each member pinned for their home screen widget, in
// their order. Private to the member; what they may no longer see is left out when read.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('home_assistant_favourites', (t) => {
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('entity_id').notNullable();
    t.integer('position').notNullable();
    t.primary(['user_id', 'entity_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('home_assistant_favourites');
}
