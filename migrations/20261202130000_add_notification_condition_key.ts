import type { Knex } from 'knex';

// A notification that describes a condition ("setup left the AI models out", "downloads failed")
// carries the condition's key: raising it again updates the one notification, and it is removed
// once the condition ends (server/modules/notifications/conditions.ts).
export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasColumn('notifications', 'condition_key')) return;
  await knex.schema.alterTable('notifications', (t) => {
    t.text('condition_key');
  });
  await knex.raw('CREATE INDEX notifications_condition ON notifications (condition_key) WHERE condition_key IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notifications_condition');
  await knex.schema.alterTable('notifications', (t) => {
    t.dropColumn('condition_key');
  });
}
