// Chat: projects (per member), conversations (private to their member), their messages and the
// pictures attached to them (files under DATA_DIR/chat, the row keeps the relative path), and two
// full-text indexes (conversation titles, message text) kept in sync by triggers, so every write
// path (the store, FK cascades when a member or a conversation is deleted) keeps them exact. The
// indexes read their text from the tables (external content), so snippet() can show the match.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('chat_conversations')) return;

  await knex.schema.createTable('chat_projects', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.index(['user_id', 'name'], 'chat_projects_user');
  });

  await knex.schema.createTable('chat_conversations', (t) => {
    // seq is the rowid alias and the title index's row id
    t.increments('seq').primary();
    t.text('id').notNullable().unique();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('model');
    t.text('project_id').references('id').inTable('chat_projects').onDelete('SET NULL');
    t.boolean('pinned').notNullable().defaultTo(false);
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.index(['project_id'], 'chat_conversations_project');
  });
  await knex.raw('CREATE INDEX chat_conversations_user_order ON chat_conversations (user_id, pinned DESC, updated_at DESC)');

  await knex.schema.createTable('chat_messages', (t) => {
    t.increments('seq').primary();
    t.text('id').notNullable().unique();
    t.text('conversation_id').notNullable().references('id').inTable('chat_conversations').onDelete('CASCADE');
    t.text('role').notNullable().checkIn(['user', 'assistant']);
    t.text('content').notNullable().defaultTo('');
    t.text('model');
    t.text('status').notNullable().checkIn(['complete', 'streaming', 'stopped', 'error']);
    t.text('error');
    // JSON: {promptTokens, outputTokens}, [ToolCallRecord], [Source]
    t.text('usage');
    t.text('tool_calls').notNullable().defaultTo('[]');
    t.text('sources').notNullable().defaultTo('[]');
    t.text('created_at').notNullable();
    t.index(['conversation_id', 'seq'], 'chat_messages_conversation');
  });

  await knex.schema.createTable('chat_message_images', (t) => {
    t.text('id').primary();
    t.text('message_id').notNullable().references('id').inTable('chat_messages').onDelete('CASCADE');
    t.text('conversation_id').notNullable().references('id').inTable('chat_conversations').onDelete('CASCADE');
    // relative to DATA_DIR/chat, resolved through the path guard
    t.text('path').notNullable();
    t.text('content_type').notNullable();
    t.integer('bytes').notNullable();
    t.text('created_at').notNullable();
    t.index(['message_id'], 'chat_message_images_message');
    t.index(['conversation_id'], 'chat_message_images_conversation');
  });

  const tokenize = `tokenize="unicode61 remove_diacritics 2"`;
  await knex.raw(`CREATE VIRTUAL TABLE chat_title_fts USING fts5(title, content='chat_conversations', content_rowid='seq', prefix='2 3', ${tokenize})`);
  await knex.raw(`CREATE VIRTUAL TABLE chat_message_fts USING fts5(content, content='chat_messages', content_rowid='seq', prefix='2 3', ${tokenize})`);
  await knex.raw(`CREATE TRIGGER chat_conversations_fts_insert AFTER INSERT ON chat_conversations BEGIN
    INSERT INTO chat_title_fts (rowid, title) VALUES (new.seq, new.title);
  END`);
  await knex.raw(`CREATE TRIGGER chat_conversations_fts_update AFTER UPDATE OF title ON chat_conversations BEGIN
    INSERT INTO chat_title_fts (chat_title_fts, rowid, title) VALUES ('delete', old.seq, old.title);
    INSERT INTO chat_title_fts (rowid, title) VALUES (new.seq, new.title);
  END`);
  await knex.raw(`CREATE TRIGGER chat_conversations_fts_delete AFTER DELETE ON chat_conversations BEGIN
    INSERT INTO chat_title_fts (chat_title_fts, rowid, title) VALUES ('delete', old.seq, old.title);
  END`);
  await knex.raw(`CREATE TRIGGER chat_messages_fts_insert AFTER INSERT ON chat_messages BEGIN
    INSERT INTO chat_message_fts (rowid, content) VALUES (new.seq, new.content);
  END`);
  await knex.raw(`CREATE TRIGGER chat_messages_fts_update AFTER UPDATE OF content ON chat_messages BEGIN
    INSERT INTO chat_message_fts (chat_message_fts, rowid, content) VALUES ('delete', old.seq, old.content);
    INSERT INTO chat_message_fts (rowid, content) VALUES (new.seq, new.content);
  END`);
  await knex.raw(`CREATE TRIGGER chat_messages_fts_delete AFTER DELETE ON chat_messages BEGIN
    INSERT INTO chat_message_fts (chat_message_fts, rowid, content) VALUES ('delete', old.seq, old.content);
  END`);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of [
    'chat_messages_fts_delete',
    'chat_messages_fts_update',
    'chat_messages_fts_insert',
    'chat_conversations_fts_delete',
    'chat_conversations_fts_update',
    'chat_conversations_fts_insert',
  ]) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${t}`);
  }
  await knex.raw('DROP TABLE IF EXISTS chat_message_fts');
  await knex.raw('DROP TABLE IF EXISTS chat_title_fts');
  await knex.schema.dropTableIfExists('chat_message_images');
  await knex.schema.dropTableIfExists('chat_messages');
  await knex.schema.dropTableIfExists('chat_conversations');
  await knex.schema.dropTableIfExists('chat_projects');
}
