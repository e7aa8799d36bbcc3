// The video hub (issue 35): the channels the household follows on YouTube, their feeds and the
// instances' answers cached (the columns of today_cache), and the vstream cache of licence-clean
// videos (PeerTube under a Creative Commons licence, podcast video episodes), each entry with its
// source, licence, file and when it was last watched (least recently watched goes first).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('youtube_channels', (t) => {
    t.text('id').primary();
    t.text('channel_id').notNullable().unique();
    t.text('title').notNullable();
    t.string('added_by').references('id').inTable('users').onDelete('SET NULL');
    t.text('added_at').notNullable();
  });
  await knex.schema.createTable('videos_cache', (t) => {
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
  await knex.schema.createTable('vstream_entries', (t) => {
    t.text('id').primary();
    t.text('source').notNullable().checkIn(['peertube', 'podcast']);
    t.text('source_id').notNullable();
    t.text('title').notNullable();
    t.text('licence');
    t.text('source_url').notNullable();
    t.text('file').notNullable();
    t.text('mime').notNullable();
    t.integer('bytes');
    t.text('job_id');
    /** A podcast episode's copy is its member's (their episode); a PeerTube copy is the household's (null). */
    t.string('owner_id').references('id').inTable('users').onDelete('CASCADE');
    t.text('requested_by');
    t.boolean('ready').notNullable().defaultTo(false);
    t.text('created_at').notNullable();
    t.text('fetched_at');
    t.text('last_watched_at');
    t.unique(['source', 'source_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('vstream_entries');
  await knex.schema.dropTableIfExists('videos_cache');
  await knex.schema.dropTableIfExists('youtube_channels');
}
