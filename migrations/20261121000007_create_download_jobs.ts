import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('download_jobs')) return;
  await knex.schema.createTable('download_jobs', (t) => {
    t.text('id').primary();
    t.text('kind').notNullable().checkIn(['archive', 'map', 'model', 'component', 'runtime_model']);
    t.text('target').notNullable();
    t.text('destination');
    t.text('label').notNullable();
    t.text('item_id');
    t.integer('expected_bytes');
    t.text('sha256');
    t.boolean('large').notNullable().defaultTo(false);
    t.text('host_class').notNullable().checkIn(['model_runtime', 'model_hub', 'archive', 'maps', 'image_engine', 'code_host', 'local']);
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
    t.index(['state']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('download_jobs');
}
