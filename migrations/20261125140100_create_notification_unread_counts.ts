// The unread count is asked by every open device (the bell) and was a count over the unread
// index, so its cost grew with the unread rows (~0.4 ms for 12,000). This table keeps the count
// per audience (a member's id, or '' for the admin-targeted rows), maintained by triggers on
// every insert, read, re-target and delete (a user's cascade delete included), so reading it is
// one primary-key lookup per audience whatever the number of notifications.
import type { Knex } from 'knex';

const KEY = (row: 'new' | 'old') => `coalesce(${row}.user_id, '')`;
const TRIGGERS = ['notifications_unread_insert', 'notifications_unread_delete', 'notifications_unread_update'];

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('notification_unread_counts')) return;
  await knex.raw('CREATE TABLE notification_unread_counts (audience TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID');
  await knex.raw(
    "INSERT INTO notification_unread_counts (audience, n) SELECT coalesce(user_id, ''), count(*) FROM notifications WHERE read_at IS NULL GROUP BY coalesce(user_id, '')",
  );
  const add = (row: 'new') =>
    `INSERT INTO notification_unread_counts (audience, n) VALUES (${KEY(row)}, 1) ON CONFLICT (audience) DO UPDATE SET n = n + 1;`;
  const remove = (row: 'old') => `UPDATE notification_unread_counts SET n = n - 1 WHERE audience = ${KEY(row)};`;
  await knex.raw(`CREATE TRIGGER notifications_unread_insert AFTER INSERT ON notifications WHEN new.read_at IS NULL BEGIN ${add('new')} END`);
  await knex.raw(`CREATE TRIGGER notifications_unread_delete AFTER DELETE ON notifications WHEN old.read_at IS NULL BEGIN ${remove('old')} END`);
  await knex.raw(`CREATE TRIGGER notifications_unread_update AFTER UPDATE OF read_at, user_id ON notifications BEGIN
    UPDATE notification_unread_counts SET n = n - 1 WHERE old.read_at IS NULL AND audience = ${KEY('old')};
    INSERT INTO notification_unread_counts (audience, n) SELECT ${KEY('new')}, 1 WHERE new.read_at IS NULL ON CONFLICT (audience) DO UPDATE SET n = n + 1;
  END`);
}

export async function down(knex: Knex): Promise<void> {
  for (const t of TRIGGERS) await knex.raw(`DROP TRIGGER IF EXISTS ${t}`);
  await knex.raw('DROP TABLE IF EXISTS notification_unread_counts');
}
