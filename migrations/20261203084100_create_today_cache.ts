// Today (issue 33): one cached copy per outside source (a day of Wikipedia's "on this day", the
// household's forecast, a news feed), with the validators for a conditional GET and the backoff
// state, so a restart does not refetch everything and an outage serves the last good copy.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('today_cache', (t) => {
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
  await knex.schema.dropTableIfExists('today_cache');
}
