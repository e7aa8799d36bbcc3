import type { Knex } from 'knex';

// Issue 32: the content level a member needs to see an installed archive (an admin sets it;
// members below it find it in no list, search or chat tool). `teen` by default.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('zim_archives', (t) => {
    t.text('content_level').notNullable().defaultTo('teen').checkIn(['child', 'teen', 'adult']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('zim_archives', (t) => {
    t.dropColumn('content_level');
  });
}
