// Shows (issue 35): TVmaze's answers cached (the columns of today_cache: one row per source key,
// the validators and the backoff state), each member's private watchlist and the episodes they ticked.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shows_cache', (t) => {
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
    t.index(['source', 'fetched_at']);
  });
  await knex.schema.createTable('show_watchlist', (t) => {
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('tvmaze_id').notNullable();
    t.text('name').notNullable();
    t.text('added_at').notNullable();
    t.primary(['user_id', 'tvmaze_id']);
  });
  await knex.schema.createTable('show_episodes_watched', (t) => {
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('tvmaze_id').notNullable();
    t.integer('episode_id').notNullable();
    t.text('watched_at').notNullable();
    t.primary(['user_id', 'episode_id']);
    t.index(['user_id', 'tvmaze_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('show_episodes_watched');
  await knex.schema.dropTableIfExists('show_watchlist');
  await knex.schema.dropTableIfExists('shows_cache');
}
