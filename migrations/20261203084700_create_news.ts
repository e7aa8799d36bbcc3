// Today's news (issue 33): the feeds the admin subscribed the household to, their items (one row
// per guid or URL per feed), and the feeds a member hid for themselves. A feed's fetch state
// (validators, backoff) is its today_cache row `news:<id>`.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('news_feeds', (t) => {
    t.increments('id');
    t.text('url').notNullable().unique();
    t.text('title').notNullable();
    t.text('site_url');
    t.text('category');
    /** 'active' | 'gone' (a 410 stopped it) */
    t.text('state').notNullable().defaultTo('active');
    t.text('created_at').notNullable();
  });
  await knex.schema.createTable('news_items', (t) => {
    t.increments('id');
    t.integer('feed_id').notNullable().references('id').inTable('news_feeds').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('title').notNullable();
    t.text('url');
    t.text('summary').notNullable();
    t.text('published_at');
    t.text('image_url');
    /** published_at, else when Hearth first saw it: the order of the list */
    t.text('sort_at').notNullable();
    t.unique(['feed_id', 'key']);
    t.index(['sort_at']);
  });
  await knex.schema.createTable('news_hidden_feeds', (t) => {
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('feed_id').notNullable().references('id').inTable('news_feeds').onDelete('CASCADE');
    t.primary(['user_id', 'feed_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('news_hidden_feeds');
  await knex.schema.dropTableIfExists('news_items');
  await knex.schema.dropTableIfExists('news_feeds');
}
