// The Reader's tables: items (with a stable integer seq that is the full-text row id), collections,
// tags (unique per owner, case-insensitive), the item-tag join, the change history of monitored
// items, and an FTS5 index over title, excerpt, content text and url, kept in sync by triggers so
// that every write path (the store, FK cascades when a user is deleted) keeps it exact.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('reader_items')) return;

  await knex.schema.createTable('reader_collections', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('icon');
    t.text('color');
    t.integer('sort_order').notNullable().defaultTo(0);
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
  });
  await knex.raw('CREATE UNIQUE INDEX reader_collections_owner_name ON reader_collections (owner_id, lower(name))');

  await knex.schema.createTable('reader_items', (t) => {
    // seq is the rowid alias (stable across VACUUM, unlike an implicit rowid) and the FTS row id.
    t.increments('seq').primary();
    t.text('id').notNullable().unique();
    t.text('owner_id').references('id').inTable('users').onDelete('CASCADE');
    t.text('source').notNullable().defaultTo('bookmark').checkIn(['bookmark', 'article', 'feed']);
    t.text('source_ref');
    t.text('type').notNullable().checkIn(['live', 'offline']);
    t.text('url').notNullable();
    t.text('title');
    t.text('byline');
    t.text('site_name');
    t.text('favicon_url');
    t.text('excerpt');
    t.text('content_html');
    t.text('content_text');
    t.integer('word_count');
    t.integer('reading_mins');
    t.text('status').notNullable().defaultTo('unread').checkIn(['unread', 'reading', 'archived']);
    t.text('archive_state').notNullable().defaultTo('none').checkIn(['none', 'pending', 'fetching', 'ready', 'failed']);
    t.text('archive_error');
    t.text('read_at');
    t.boolean('use_proxy').notNullable().defaultTo(false);
    t.boolean('use_embed').notNullable().defaultTo(false);
    t.text('category').notNullable().defaultTo('Other');
    t.text('collection_id').references('id').inTable('reader_collections').onDelete('SET NULL');
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('auto_update').notNullable().defaultTo(false);
    t.integer('auto_update_interval_mins');
    t.boolean('alert_on_change').notNullable().defaultTo(false);
    t.text('content_hash');
    t.text('last_checked_at');
    t.text('content_changed_at');
    t.text('screenshot_path');
    t.text('snapshot_path');
    t.text('og_image_path');
    // The client-rasterized PNG (POST /:id/thumbnail); kept across re-captures.
    t.text('thumbnail_path');
    // The durable thumbnail queue for live items: pending rows are (re)picked at startup.
    t.text('thumbnail_state').notNullable().defaultTo('none').checkIn(['none', 'pending', 'ready', 'failed']);
    t.boolean('is_adult').notNullable().defaultTo(false);
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.index(['owner_id', 'sort_order', 'created_at'], 'reader_items_owner_order');
    t.index(['collection_id'], 'reader_items_collection');
  });
  await knex.raw('CREATE UNIQUE INDEX reader_items_owner_source_ref ON reader_items (owner_id, source_ref) WHERE source_ref IS NOT NULL');
  // The capture queues are "rows in a waiting state": partial indexes keep picking the next one cheap.
  await knex.raw("CREATE INDEX reader_items_archive_queue ON reader_items (archive_state, updated_at) WHERE archive_state IN ('pending', 'fetching')");
  await knex.raw("CREATE INDEX reader_items_thumbnail_queue ON reader_items (thumbnail_state, updated_at) WHERE thumbnail_state = 'pending'");

  await knex.schema.createTable('reader_tags', (t) => {
    t.text('id').primary();
    // null = a tag of global items
    t.text('owner_id').references('id').inTable('users').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('created_at').notNullable();
  });
  await knex.raw("CREATE UNIQUE INDEX reader_tags_owner_name ON reader_tags (coalesce(owner_id, ''), lower(name))");

  await knex.schema.createTable('reader_item_tags', (t) => {
    t.text('item_id').notNullable().references('id').inTable('reader_items').onDelete('CASCADE');
    t.text('tag_id').notNullable().references('id').inTable('reader_tags').onDelete('CASCADE');
    t.primary(['item_id', 'tag_id']);
    t.index(['tag_id'], 'reader_item_tags_tag');
  });

  await knex.schema.createTable('reader_item_changes', (t) => {
    t.increments('id').primary();
    t.text('item_id').notNullable().references('id').inTable('reader_items').onDelete('CASCADE');
    t.text('checked_at').notNullable();
    t.boolean('changed').notNullable();
    t.integer('word_count');
    t.integer('previous_word_count');
    t.text('excerpt');
    t.index(['item_id', 'checked_at'], 'reader_item_changes_item');
  });

  // Contentless (the text already lives in reader_items) with contentless_delete so rows can be
  // removed by rowid. unicode61 treats punctuation as separators, so the raw URL indexes as words
  // ("www nytimes com 2024 ..."); remove_diacritics 2 folds "Café" and "cafe" together.
  await knex.raw(
    `CREATE VIRTUAL TABLE reader_fts USING fts5(title, excerpt, content_text, url, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2")`,
  );
  await knex.raw(`CREATE TRIGGER reader_items_fts_insert AFTER INSERT ON reader_items BEGIN
    INSERT INTO reader_fts (rowid, title, excerpt, content_text, url) VALUES (new.seq, new.title, new.excerpt, new.content_text, new.url);
  END`);
  await knex.raw(`CREATE TRIGGER reader_items_fts_update AFTER UPDATE OF title, excerpt, content_text, url ON reader_items BEGIN
    DELETE FROM reader_fts WHERE rowid = old.seq;
    INSERT INTO reader_fts (rowid, title, excerpt, content_text, url) VALUES (new.seq, new.title, new.excerpt, new.content_text, new.url);
  END`);
  await knex.raw(`CREATE TRIGGER reader_items_fts_delete AFTER DELETE ON reader_items BEGIN
    DELETE FROM reader_fts WHERE rowid = old.seq;
  END`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS reader_items_fts_delete');
  await knex.raw('DROP TRIGGER IF EXISTS reader_items_fts_update');
  await knex.raw('DROP TRIGGER IF EXISTS reader_items_fts_insert');
  await knex.raw('DROP TABLE IF EXISTS reader_fts');
  await knex.schema.dropTableIfExists('reader_item_changes');
  await knex.schema.dropTableIfExists('reader_item_tags');
  await knex.schema.dropTableIfExists('reader_tags');
  await knex.schema.dropTableIfExists('reader_items');
  await knex.schema.dropTableIfExists('reader_collections');
}
