// The local copy of a reader item's site icon (a file in the item's capture folder, e.g.
// "favicon.png"): the web app shows same-origin images only, so it is served from Hearth
// (/api/reader/:id/favicon) instead of the site's own address, which stays in favicon_url.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasColumn('reader_items', 'favicon_path')) return;
  await knex.schema.alterTable('reader_items', (t) => {
    t.text('favicon_path');
  });
}

export async function down(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('reader_items', 'favicon_path'))) return;
  // a plain DROP COLUMN: knex's SQLite dropColumn rebuilds the table, which loses its FTS triggers
  await knex.raw('ALTER TABLE reader_items DROP COLUMN favicon_path');
}
