// Image generation: each member's generated and edited pictures (private to their member: files
// under DATA_DIR/images/<userId>/<id>.png, or .webp for video and i2v; the row keeps the path
// relative to DATA_DIR/images), uploaded reference faces for face_id, the household's LoRAs and
// their categories (files under the engine's models/loras folder, the row keeps the file name
// relative to it), per-member grants (default deny: a member uses a LoRA only when it, or its
// category, is granted "on"), and each member's image protections, which only an admin sets.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('generated_images')) return;

  await knex.schema.createTable('generated_images', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('kind').notNullable().checkIn(['generated', 'edited']);
    t.text('pipeline').notNullable();
    // queued: waiting for the engine (position shown); building: on the engine; failed keeps a sentence in `error`
    t.text('state').notNullable().checkIn(['queued', 'building', 'ready', 'cancelled', 'failed']);
    t.integer('step_current').notNullable().defaultTo(0);
    t.integer('step_total').notNullable().defaultTo(0);
    t.boolean('is_adult').notNullable().defaultTo(false);
    // what the member typed (or the edit op's label); the prompt sent after the pipeline
    t.text('prompt').notNullable().defaultTo('');
    t.text('final_prompt');
    t.text('negative_prompt');
    t.text('style');
    // JSON: the request's options after clamps (size, steps, guidance, seed, fast, op values)
    t.text('params').notNullable().defaultTo('{}');
    // JSON: [{id, name, weight}] of the LoRAs used
    t.text('loras').notNullable().defaultTo('[]');
    // the picture an edit started from (another artifact of the same member), if any
    t.text('source_id');
    t.text('error');
    // relative to DATA_DIR/images, resolved through the path guard
    t.text('output_path');
    t.text('content_type');
    t.integer('width');
    t.integer('height');
    t.integer('bytes');
    t.text('created_at').notNullable();
    t.text('started_at');
    t.text('finished_at');
    t.index(['user_id', 'state', 'created_at'], 'generated_images_user_state');
  });

  await knex.schema.createTable('image_reference_faces', (t) => {
    t.text('id').primary();
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    // relative to DATA_DIR/images
    t.text('file_path').notNullable();
    t.text('created_at').notNullable();
    t.index(['user_id'], 'image_reference_faces_user');
  });

  await knex.schema.createTable('image_lora_categories', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('created_at').notNullable();
  });
  await knex.raw('CREATE UNIQUE INDEX image_lora_categories_name ON image_lora_categories (name COLLATE NOCASE)');

  await knex.schema.createTable('image_loras', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    // the file name under the engine's models/loras folder (never an absolute path)
    t.text('file_path').notNullable().unique();
    t.integer('file_bytes');
    // JSON array of strings
    t.text('trigger_tokens').notNullable().defaultTo('[]');
    t.float('default_weight').notNullable().defaultTo(0.8);
    t.float('min_weight').notNullable().defaultTo(0);
    t.float('max_weight').notNullable().defaultTo(1.5);
    t.text('category_id').references('id').inTable('image_lora_categories').onDelete('SET NULL');
    t.text('style_label');
    t.boolean('is_stylistic').notNullable().defaultTo(false);
    t.boolean('is_adult').notNullable().defaultTo(false);
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('when_to_use');
    // JSON array of strings
    t.text('example_requests').notNullable().defaultTo('[]');
    // the model hub's id (e.g. a civitai model version id)
    t.text('external_id');
    // JSON array of base families (sd15, sd2, sdxl, sd3, flux)
    t.text('base_families').notNullable().defaultTo('[]');
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.index(['category_id'], 'image_loras_category');
  });

  await knex.schema.createTable('image_lora_grants', (t) => {
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('lora_id').notNullable().references('id').inTable('image_loras').onDelete('CASCADE');
    t.text('state').notNullable().checkIn(['on', 'off']);
    t.text('updated_at').notNullable();
    t.primary(['user_id', 'lora_id']);
  });

  await knex.schema.createTable('image_category_grants', (t) => {
    t.text('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('category_id').notNullable().references('id').inTable('image_lora_categories').onDelete('CASCADE');
    t.text('state').notNullable().checkIn(['on', 'off']);
    t.text('updated_at').notNullable();
    t.primary(['user_id', 'category_id']);
  });

  // Set by an admin only. A member without a row has the defaults: the safety prefix on
  // (uncensored_images false) and adult LoRAs blocked (block_adult_loras true).
  await knex.schema.createTable('image_member_protections', (t) => {
    t.text('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.boolean('uncensored_images').notNullable().defaultTo(false);
    t.boolean('block_adult_loras').notNullable().defaultTo(true);
    t.text('updated_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('image_member_protections');
  await knex.schema.dropTableIfExists('image_category_grants');
  await knex.schema.dropTableIfExists('image_lora_grants');
  await knex.schema.dropTableIfExists('image_loras');
  await knex.schema.dropTableIfExists('image_lora_categories');
  await knex.schema.dropTableIfExists('image_reference_faces');
  await knex.schema.dropTableIfExists('generated_images');
}
