import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('zim_archives')) return;
  await knex.schema.createTable('zim_archives', (t) => {
    t.increments('id').primary();
    t.text('source_id').notNullable().unique();
    t.text('variant_key').notNullable();
    // The archive server's URL segment for this book (kiwix calls it the book name). Read from the
    // running server's catalog, never assumed; null until the server has served the file.
    t.text('book_name');
    t.text('file_path').notNullable();
    t.integer('file_size_bytes').notNullable();
    t.text('zim_date');
    t.text('downloaded_at').notNullable();
    t.text('verified_at');
    // Set when verify found the file damaged; the archive is then left out of the served set.
    t.text('quarantined_at');
    t.text('quarantine_reason');
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('zim_archives');
}
