// Podcasts (issue 35): each member's followed shows (private) and the episodes read from their feeds,
// with the member's listening progress per episode.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('podcast_subscriptions', (t) => {
    t.string('id').primary();
    t.string('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('feed_url').notNullable();
    t.string('title').notNullable();
    t.string('image_url');
    t.string('subscribed_at').notNullable();
    // the feed's validators, sent back on the next poll (a 304 keeps what is kept)
    t.string('etag');
    t.string('last_modified');
    t.string('polled_at');
    /** Set when the feed answered 410 Gone: no more polls. */
    t.string('stopped_at');
    t.unique(['user_id', 'feed_url']);
  });
  await knex.schema.createTable('podcast_episodes', (t) => {
    t.string('id').primary();
    t.string('subscription_id').notNullable().references('id').inTable('podcast_subscriptions').onDelete('CASCADE');
    t.string('key').notNullable();
    t.string('title').notNullable();
    t.string('audio_url').notNullable();
    t.string('audio_type');
    t.integer('audio_length');
    t.integer('duration_sec');
    t.string('published_at');
    t.integer('position_sec').notNullable().defaultTo(0);
    t.string('progress_at');
    t.boolean('finished').notNullable().defaultTo(false);
    t.unique(['subscription_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('podcast_episodes');
  await knex.schema.dropTable('podcast_subscriptions');
}
