import type { Knex } from 'knex';

// Camera event clips (issue 37): whether Frigate kept a clip of the event, so Hearth can offer it
// (proxied at /api/home-assistant/events/:id/clip).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('frigate_events', (t) => {
    t.boolean('has_clip').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('frigate_events', (t) => {
    t.dropColumn('has_clip');
  });
}
