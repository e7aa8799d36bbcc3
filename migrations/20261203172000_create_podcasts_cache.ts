// Podcasts (issue 35): each show's cover, fetched once by Hearth and kept like Today's sources (the
// columns of today_cache: one row per source key, the validators and the backoff state), so no
// browser asks a podcast's image host.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('podcasts_cache', (t) => {
    t.text('key').primary();
    t.text('source').notNullable();
    t.text('url').notNullable();
    t.text('payload');
    t.text('fetched_at');
    t.text('expires_at');
    t.text('etag');
    t.text('last_modified');
    t.integer('fail_count').notNullable().defaultTo(0);
    t.text('next_try_at');
    t.text('last_error');
    t.text('last_try_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('podcasts_cache');
}
