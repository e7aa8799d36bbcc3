// Lookup (issue 38): every barcode answer Open Food Facts gave, "not found" too, kept so a code is
// asked at most once in a while and answers offline once it has been asked.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('lookup_barcodes', (t) => {
    t.string('code').primary();
    t.boolean('found').notNullable();
    t.string('name');
    t.string('brand');
    t.string('quantity');
    t.string('image_url');
    /** JSON array of the product's category names. */
    t.text('categories').notNullable().defaultTo('[]');
    t.string('source').notNullable();
    t.string('fetched_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('lookup_barcodes');
}
