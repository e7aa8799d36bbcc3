// Vision in chat (issue 39): a photo sent to a chat model that cannot see is looked at by the
// household's vision model; what it saw is kept with the picture, so later turns read it too.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chat_message_images', (t) => {
    t.text('description');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chat_message_images', (t) => {
    t.dropColumn('description');
  });
}
