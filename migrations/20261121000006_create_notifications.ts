import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('notifications')) return;
  await knex.schema.createTable('notifications', (t) => {
    t.text('id').primary();
    // null = admin-targeted (visible to every admin)
    t.text('user_id').references('id').inTable('users').onDelete('CASCADE');
    t.text('type').notNullable().checkIn(['install_request', 'install_complete', 'download_complete', 'system']);
    t.text('payload').notNullable().defaultTo('{}');
    t.text('read_at');
    t.text('created_at').notNullable();
    t.index(['user_id', 'created_at'], 'notifications_user_created');
  });
  // The unread count is polled by every device every 30 s: a partial index keeps it one index scan.
  await knex.raw('CREATE INDEX notifications_unread ON notifications (user_id) WHERE read_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('notifications');
}
