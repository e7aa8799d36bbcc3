// Podcasts (issue 35): offline copies of episodes. One copy on disk per enclosure address
// (podcast_copies), shared by every member who downloads that episode (podcast_downloads: which of
// a member's episodes have asked for which copy); a show's "keep the newest N" (keep_newest, null =
// keep all); and, per episode, when its copy was removed (by the member or by keep-newest), so the
// automatic rule never downloads it again. The download queue learns a `podcast` job kind and host
// class: SQLite cannot widen a CHECK in place, so download_jobs is rebuilt with its rows.
import type { Knex } from 'knex';

// 'video' and 'media' came with the video hub's cache (20261203191100)
const KINDS = ['archive', 'map', 'model', 'component', 'runtime_model', 'video'];
const HOSTS = ['model_runtime', 'model_hub', 'archive', 'maps', 'image_engine', 'code_host', 'local', 'media'];

function jobsTable(kinds: string[], hosts: string[]) {
  return (t: Knex.CreateTableBuilder) => {
    t.text('id').primary();
    t.text('kind').notNullable().checkIn(kinds);
    t.text('target').notNullable();
    t.text('destination');
    t.text('label').notNullable();
    t.text('item_id');
    t.integer('expected_bytes');
    t.text('sha256');
    t.boolean('large').notNullable().defaultTo(false);
    t.text('host_class').notNullable().checkIn(hosts);
    t.integer('priority').notNullable();
    t.float('position').notNullable().defaultTo(0);
    t.text('state').notNullable().checkIn(['pending', 'running', 'completed', 'failed', 'cancelled']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('next_attempt_at');
    t.integer('bytes_done').notNullable().defaultTo(0);
    t.integer('bytes_total');
    t.integer('speed_bps').notNullable().defaultTo(0);
    t.text('last_error');
    t.text('requires').notNullable().defaultTo('[]');
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.text('started_at');
    t.text('finished_at');
  };
}

async function rebuildJobs(knex: Knex, kinds: string[], hosts: string[]): Promise<void> {
  await knex.schema.createTable('download_jobs_next', jobsTable(kinds, hosts));
  await knex.raw('INSERT INTO download_jobs_next SELECT id, kind, target, destination, label, item_id, expected_bytes, sha256, large, host_class, priority, position, state, attempts, next_attempt_at, bytes_done, bytes_total, speed_bps, last_error, requires, created_at, updated_at, started_at, finished_at FROM download_jobs');
  await knex.schema.dropTable('download_jobs');
  await knex.schema.renameTable('download_jobs_next', 'download_jobs');
  await knex.schema.alterTable('download_jobs', (t) => t.index(['state']));
}

export async function up(knex: Knex): Promise<void> {
  await rebuildJobs(knex, [...KINDS, 'podcast'], [...HOSTS, 'podcast']);
  await knex.schema.alterTable('podcast_subscriptions', (t) => {
    t.integer('keep_newest');
  });
  await knex.schema.alterTable('podcast_episodes', (t) => {
    /** When this episode's offline copy was removed: the keep-newest rule does not fetch it again. */
    t.string('download_dropped_at');
    // the inbox: a show's unfinished episodes by date, read from the index alone
    t.index(['subscription_id', 'finished', 'published_at', 'id'], 'podcast_episodes_inbox_index');
  });
  await knex.schema.createTable('podcast_copies', (t) => {
    /** sha256 of the enclosure address (cut short): the same episode is one file for everyone. */
    t.string('id').primary();
    t.string('audio_url').notNullable();
    /** Relative to the data folder (podcasts/<id>.<ext>). */
    t.string('destination').notNullable();
    t.string('audio_type').notNullable();
    t.string('job_id');
    t.string('state').notNullable().checkIn(['queued', 'ready']);
    t.integer('bytes');
    t.string('created_at').notNullable();
    t.string('ready_at');
  });
  await knex.schema.createTable('podcast_downloads', (t) => {
    t.string('episode_id').primary().references('id').inTable('podcast_episodes').onDelete('CASCADE');
    t.string('copy_id').notNullable().references('id').inTable('podcast_copies');
    t.string('requested_at').notNullable();
    t.index(['copy_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('podcast_downloads');
  await knex.schema.dropTable('podcast_copies');
  await knex.schema.alterTable('podcast_episodes', (t) => {
    t.dropIndex([], 'podcast_episodes_inbox_index');
    t.dropColumn('download_dropped_at');
  });
  await knex.schema.alterTable('podcast_subscriptions', (t) => t.dropColumn('keep_newest'));
  await knex.raw("DELETE FROM download_jobs WHERE kind = 'podcast' OR host_class = 'podcast'");
  await rebuildJobs(knex, KINDS, HOSTS);
}
