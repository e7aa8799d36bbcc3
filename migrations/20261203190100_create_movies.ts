// Films (issue 35): TMDB's answers and posters cached (the columns of shows_cache), and each
// member's private film watchlist with the ids that match it in Plex and how its copy on the
// member's Plex watchlist went.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('movies_cache', (t) => {
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
  await knex.schema.createTable('movie_watchlist', (t) => {
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    /** Hearth's film id: tmdb-<n>, plex-<discover key> or lib-<ratingKey>. */
    t.text('movie_id').notNullable();
    t.text('title').notNullable();
    t.integer('year');
    t.integer('tmdb_id');
    t.text('imdb_id');
    t.text('discover_key');
    /** Hearth's own address of its poster (never the outside one); null: none. */
    t.text('poster_url');
    /** The copy on the member's Plex watchlist: mirrored, failed or off (not linked). */
    t.text('plex_state').notNullable().defaultTo('off');
    t.text('added_at').notNullable();
    t.primary(['user_id', 'movie_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('movie_watchlist');
  await knex.schema.dropTableIfExists('movies_cache');
}
