// What PIN sign-in remembers across a restart (issue 29 item 5): the browsers each member signed
// in on with the right PIN (they skip the pace that slows guessing), the wrong-PIN counts and locks
// per profile on a device and per device, and the paces of a profile and of the household. Before,
// all of it lived in memory, so a restart let a flood of guesses keep a member out of her own phone.
// Times are ISO strings like every other table's; a member's rows go with her (cascade).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasTable('trusted_devices'))) {
    await knex.schema.createTable('trusted_devices', (t) => {
      // sha256 of the device cookie's token: the token itself is never stored
      t.text('device_hash').notNullable();
      t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.text('created_at').notNullable();
      t.text('last_used_at').notNullable();
      t.primary(['device_hash', 'user_id']);
    });
  }
  if (!(await knex.schema.hasTable('pin_strikes'))) {
    await knex.schema.createTable('pin_strikes', (t) => {
      // `p|<user>|<client>` (a profile on one device) or `d|<client>` (one device, every profile)
      t.text('key').primary();
      t.text('user_id').references('id').inTable('users').onDelete('CASCADE');
      t.integer('failures').notNullable();
      t.integer('locks').notNullable();
      t.text('locked_until');
      t.text('last_failure_at').notNullable();
    });
  }
  if (!(await knex.schema.hasTable('pin_paces'))) {
    await knex.schema.createTable('pin_paces', (t) => {
      // a user id (that profile, from every device) or `*` (the whole household)
      t.text('key').primary();
      t.integer('failures').notNullable();
      t.text('last_failure_at').notNullable();
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('pin_paces');
  await knex.schema.dropTableIfExists('pin_strikes');
  await knex.schema.dropTableIfExists('trusted_devices');
}
