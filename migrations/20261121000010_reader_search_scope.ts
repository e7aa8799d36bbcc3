// Reader search at household scale (50,000 items): the visible set (own + global) becomes part of
// the full-text match through a `scope` token per row ("u<owner id>" or "global"), so counting
// and paging matches never look rows up in reader_items; prefix indexes for 2 and 3 characters
// keep search-as-you-type cheap. The list order gets an index in its own direction
// (sort_order ASC, created_at DESC) so the newest page is read without sorting the library.
import type { Knex } from 'knex';

const SCOPE = (row: 'new' | 'old') => `'u' || replace(coalesce(${row}.owner_id, 'global'), '-', '')`;
const GLOBAL_SCOPE = "'global'";

async function createTriggers(knex: Knex, withScope: boolean): Promise<void> {
  const cols = withScope ? 'rowid, title, excerpt, content_text, url, scope' : 'rowid, title, excerpt, content_text, url';
  const vals = (row: 'new') =>
    withScope
      ? `${row}.seq, ${row}.title, ${row}.excerpt, ${row}.content_text, ${row}.url, CASE WHEN ${row}.owner_id IS NULL THEN ${GLOBAL_SCOPE} ELSE ${SCOPE(row)} END`
      : `${row}.seq, ${row}.title, ${row}.excerpt, ${row}.content_text, ${row}.url`;
  await knex.raw(`CREATE TRIGGER reader_items_fts_insert AFTER INSERT ON reader_items BEGIN
    INSERT INTO reader_fts (${cols}) VALUES (${vals('new')});
  END`);
  await knex.raw(`CREATE TRIGGER reader_items_fts_update AFTER UPDATE OF title, excerpt, content_text, url, owner_id ON reader_items BEGIN
    DELETE FROM reader_fts WHERE rowid = old.seq;
    INSERT INTO reader_fts (${cols}) VALUES (${vals('new')});
  END`);
  await knex.raw(`CREATE TRIGGER reader_items_fts_delete AFTER DELETE ON reader_items BEGIN
    DELETE FROM reader_fts WHERE rowid = old.seq;
  END`);
}

async function dropTriggers(knex: Knex): Promise<void> {
  for (const t of ['reader_items_fts_insert', 'reader_items_fts_update', 'reader_items_fts_delete']) await knex.raw(`DROP TRIGGER IF EXISTS ${t}`);
}

export async function up(knex: Knex): Promise<void> {
  const cols = (await knex.raw('PRAGMA table_xinfo(reader_fts)')) as Array<{ name: string }>;
  if (cols.some((c) => c.name === 'scope')) return;
  await dropTriggers(knex);
  await knex.raw('DROP TABLE IF EXISTS reader_fts');
  await knex.raw(
    `CREATE VIRTUAL TABLE reader_fts USING fts5(title, excerpt, content_text, url, scope, content='', contentless_delete=1, prefix='2 3', tokenize="unicode61 remove_diacritics 2")`,
  );
  await knex.raw(
    `INSERT INTO reader_fts (rowid, title, excerpt, content_text, url, scope)
     SELECT seq, title, excerpt, content_text, url, CASE WHEN owner_id IS NULL THEN ${GLOBAL_SCOPE} ELSE 'u' || replace(owner_id, '-', '') END FROM reader_items`,
  );
  await createTriggers(knex, true);
  await knex.raw('DROP INDEX IF EXISTS reader_items_owner_order');
  await knex.raw('CREATE INDEX reader_items_owner_order ON reader_items (owner_id, sort_order, created_at DESC)');
  // Filtered lists read these in list order; their counts never touch the (wide) rows.
  await knex.raw('CREATE INDEX reader_items_owner_status ON reader_items (owner_id, status, sort_order, created_at DESC)');
  await knex.raw('CREATE INDEX reader_items_owner_type ON reader_items (owner_id, type, sort_order, created_at DESC)');
  await knex.raw('DROP INDEX IF EXISTS reader_items_collection');
  await knex.raw('CREATE INDEX reader_items_collection ON reader_items (collection_id, owner_id, sort_order, created_at DESC)');
  // tag filters reach items by id: this makes ordering them index-only
  await knex.raw('CREATE INDEX reader_items_id_order ON reader_items (id, owner_id, sort_order, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS reader_items_id_order');
  await knex.raw('DROP INDEX IF EXISTS reader_items_owner_status');
  await knex.raw('DROP INDEX IF EXISTS reader_items_owner_type');
  await knex.raw('DROP INDEX IF EXISTS reader_items_collection');
  await knex.raw('CREATE INDEX reader_items_collection ON reader_items (collection_id)');
  await dropTriggers(knex);
  await knex.raw('DROP TABLE IF EXISTS reader_fts');
  await knex.raw(`CREATE VIRTUAL TABLE reader_fts USING fts5(title, excerpt, content_text, url, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2")`);
  await knex.raw('INSERT INTO reader_fts (rowid, title, excerpt, content_text, url) SELECT seq, title, excerpt, content_text, url FROM reader_items');
  await createTriggers(knex, false);
  await knex.raw('DROP INDEX IF EXISTS reader_items_owner_order');
  await knex.raw('CREATE INDEX reader_items_owner_order ON reader_items (owner_id, sort_order, created_at)');
}
