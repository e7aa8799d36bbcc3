import type { Knex } from 'knex';

// Issue 32: the companion a conversation speaks as, kept with it so re-opening the conversation keeps
// the companion. NULL: the household assistant. Deleting the companion leaves the conversation to the
// household assistant (ON DELETE SET NULL). Plain ALTER TABLE ADD COLUMN: SQLite takes a REFERENCES
// clause there when the default is NULL, so the table (and its full-text triggers) is not rebuilt.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE chat_conversations ADD COLUMN companion_id TEXT REFERENCES companions(id) ON DELETE SET NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('chat_conversations', (t) => {
    t.dropColumn('companion_id');
  });
}
