import type { Knex } from 'knex';

// Offline maps (issue 36): the regions installed from the map catalog (one .pmtiles file each under
// DATA_DIR/maps) and the places members and the household save.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('map_regions', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    /** [west, south, east, north] as JSON. */
    t.text('bbox').notNullable();
    t.integer('min_zoom').notNullable();
    t.integer('max_zoom').notNullable();
    t.integer('bytes').notNullable();
    t.text('sha256');
    /** Relative to DATA_DIR (maps/<id>.pmtiles). */
    t.text('file_path').notNullable();
    t.text('source_url').notNullable();
    t.text('installed_at').notNullable();
    /** Directions: none (the catalog has no roads for it), building, ready or failed. */
    t.text('routing').notNullable().defaultTo('none').checkIn(['none', 'building', 'ready', 'failed']);
    t.text('routing_error');
  });
  await knex.schema.createTable('map_places', (t) => {
    t.text('id').primary();
    /** Null for a household place (every member sees it). */
    t.text('user_id').references('id').inTable('users').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('note').notNullable().defaultTo('');
    t.float('lat').notNullable();
    t.float('lon').notNullable();
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('map_places');
  await knex.schema.dropTableIfExists('map_regions');
}
