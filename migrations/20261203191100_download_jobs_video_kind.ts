// The download queue learns a 'video' job (the video hub's cache of licence-clean videos, issue 35)
// on a 'media' host: SQLite cannot change a CHECK, so the table is built again with the longer
// lists and every row copied across, in one transaction (knex runs each migration in one).
import type { Knex } from 'knex';

const COLUMNS = ['id', 'kind', 'target', 'destination', 'label', 'item_id', 'expected_bytes', 'sha256', 'large', 'host_class', 'priority', 'position', 'state', 'attempts', 'next_attempt_at', 'bytes_done', 'bytes_total', 'speed_bps', 'last_error', 'requires', 'created_at', 'updated_at', 'started_at', 'finished_at'];

async function rebuild(knex: Knex, kinds: string[], hosts: string[]): Promise<void> {
  await knex.schema.createTable('download_jobs_next', (t) => {
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
  });
  const cols = COLUMNS.join(', ');
  await knex.raw(`INSERT INTO download_jobs_next (${cols}) SELECT ${cols} FROM download_jobs WHERE kind IN (${kinds.map(() => '?').join(', ')}) AND host_class IN (${hosts.map(() => '?').join(', ')})`, [...kinds, ...hosts]);
  await knex.schema.dropTable('download_jobs');
  await knex.schema.renameTable('download_jobs_next', 'download_jobs');
  await knex.schema.alterTable('download_jobs', (t) => t.index(['state']));
}

const KINDS = ['archive', 'map', 'model', 'component', 'runtime_model'];
const HOSTS = ['model_runtime', 'model_hub', 'archive', 'maps', 'image_engine', 'code_host', 'local'];

export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, [...KINDS, 'video'], [...HOSTS, 'media']);
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(knex, KINDS, HOSTS);
}
