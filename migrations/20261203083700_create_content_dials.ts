import type { Knex } from 'knex';

// One safety envelope per member (issue 32). content_dials: a member's level and, per area, a
// tighter setting (null: the area follows the level); a member without a row is at `teen`. The
// first admin is `adult`: a trigger writes their row as the household's first admin is inserted,
// and an existing household's earliest admin gets it here. The image protections move into the
// dials (a member whose adult LoRAs were unblocked is `adult`, with pictures at `teen` unless they
// were uncensored; uncensored pictures with adult LoRAs still blocked become `teen`, the safer
// reading) and their table goes. content_adult_states: the PIN-gated adult state of one session,
// gone with the session (signing out ends it).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_dials', (t) => {
    t.text('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.text('level').notNullable().checkIn(['child', 'teen', 'adult']);
    for (const area of ['chat', 'images', 'media', 'archives']) t.text(area).checkIn(['child', 'teen', 'adult']);
    t.text('updated_at').notNullable();
  });
  await knex.schema.createTable('content_adult_states', (t) => {
    t.text('session_id').primary().references('id').inTable('sessions').onDelete('CASCADE');
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('until').notNullable();
  });
  if (await knex.schema.hasTable('image_member_protections')) {
    await knex.raw(`
      INSERT INTO content_dials (user_id, level, images, updated_at)
      SELECT user_id,
             CASE WHEN block_adult_loras THEN 'teen' ELSE 'adult' END,
             CASE WHEN NOT block_adult_loras AND NOT uncensored_images THEN 'teen' ELSE NULL END,
             updated_at
      FROM image_member_protections`);
    await knex.schema.dropTable('image_member_protections');
  }
  await knex.raw(`
    INSERT OR IGNORE INTO content_dials (user_id, level, updated_at)
    SELECT id, 'adult', created_at FROM users WHERE role = 'admin' ORDER BY created_at, id LIMIT 1`);
  await knex.raw(`
    CREATE TRIGGER content_dials_first_admin AFTER INSERT ON users
    WHEN NEW.role = 'admin' AND NOT EXISTS (SELECT 1 FROM users WHERE role = 'admin' AND id <> NEW.id)
    BEGIN
      INSERT OR IGNORE INTO content_dials (user_id, level, updated_at) VALUES (NEW.id, 'adult', NEW.created_at);
    END`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS content_dials_first_admin');
  await knex.schema.createTable('image_member_protections', (t) => {
    t.text('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.boolean('uncensored_images').notNullable().defaultTo(false);
    t.boolean('block_adult_loras').notNullable().defaultTo(true);
    t.text('updated_at').notNullable();
  });
  await knex.raw(`
    INSERT INTO image_member_protections (user_id, uncensored_images, block_adult_loras, updated_at)
    SELECT user_id, level = 'adult' AND images IS NULL, level <> 'adult', updated_at FROM content_dials`);
  await knex.schema.dropTableIfExists('content_adult_states');
  await knex.schema.dropTableIfExists('content_dials');
}
