// Shows (issue 35): a tick is either the member's own (watched or not: an untick is kept, so Plex
// cannot tick it again) or copied from the member's Plex viewed state, which Plex may change again.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('show_episodes_watched', (t) => {
    t.boolean('watched').notNullable().defaultTo(true);
    t.text('source').notNullable().defaultTo('member');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex('show_episodes_watched').where({ watched: false }).delete();
  await knex.schema.alterTable('show_episodes_watched', (t) => {
    t.dropColumn('source');
    t.dropColumn('watched');
  });
}
