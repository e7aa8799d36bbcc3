// Which chat models a member may use. No row means every chat model (the default); a row holds the
// chosen set as a JSON array of model names (possibly empty: no chat model). Admins have no row:
// they may always use every model. A member's row goes with them (cascade, and the models module
// also clears it on `user.deleted`).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('model_access')) return;
  await knex.schema.createTable('model_access', (t) => {
    t.text('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.text('allowed').notNullable();
    t.text('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('model_access');
}
