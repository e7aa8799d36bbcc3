// Today (issue 33): the news list leaves out an item another followed feed also carries (same URL or
// same guid): these indexes let that look-up find the other copies without reading every item.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('news_items', (t) => {
    t.index(['url'], 'news_items_url_index');
    t.index(['key'], 'news_items_key_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('news_items', (t) => {
    t.dropIndex(['url'], 'news_items_url_index');
    t.dropIndex(['key'], 'news_items_key_index');
  });
}
