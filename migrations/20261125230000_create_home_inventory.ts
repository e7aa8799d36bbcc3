// Home inventory: the household's devices (every member sees and edits every one), their service
// log, their files (photos, manuals, receipts: files under DATA_DIR/home-inventory/<deviceId>/, the
// row keeps the path relative to DATA_DIR/home-inventory) and their links. A member's deletion
// keeps the devices they added (created_by becomes null; an admin may then delete them).
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('home_devices')) return;

  await knex.schema.createTable('home_devices', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('brand');
    t.text('model');
    t.text('serial_number');
    t.text('category').notNullable().defaultTo('other').checkIn(['appliance', 'electronics', 'vehicle', 'tool', 'furniture', 'other']);
    t.text('location');
    t.text('owner');
    // verbatim OCR of the label photo
    t.text('raw_label_text');
    // JSON object of string values
    t.text('specs').notNullable().defaultTo('{}');
    t.text('manufactured_date');
    t.text('purchase_date');
    t.float('purchase_price');
    t.text('purchase_store');
    // YYYY-MM-DD
    t.text('warranty_expires');
    t.text('warranty_notes');
    t.text('support_url');
    t.text('support_phone');
    t.text('manual_url');
    // relative to DATA_DIR/home-inventory, resolved through the path guard
    t.text('manual_path');
    t.text('manual_text');
    t.text('manual_fetched_at');
    t.text('photo_path');
    t.text('main_photo_id');
    t.text('lookup_status').notNullable().defaultTo('skipped').checkIn(['pending', 'complete', 'failed', 'skipped']);
    t.text('lookup_queued_at');
    // why the last lookup failed or was skipped (a sentence)
    t.text('lookup_error');
    t.text('notes');
    // the warranty date a 30-day / 7-day reminder was sent for (a new date may be reminded again)
    t.text('warranty_nudged_30_for');
    t.text('warranty_nudged_7_for');
    t.text('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.text('created_at').notNullable();
    t.text('updated_at').notNullable();
    t.index(['category'], 'home_devices_category');
    t.index(['warranty_expires'], 'home_devices_warranty');
    t.index(['lookup_status'], 'home_devices_lookup');
  });
  await knex.raw('CREATE INDEX home_devices_name ON home_devices (name COLLATE NOCASE)');

  await knex.schema.createTable('home_service_log', (t) => {
    t.text('id').primary();
    t.text('device_id').notNullable().references('id').inTable('home_devices').onDelete('CASCADE');
    // YYYY-MM-DD
    t.text('date').notNullable();
    t.text('type').notNullable().checkIn(['repair', 'maintenance', 'inspection', 'upgrade', 'other']);
    t.text('description').notNullable();
    t.text('technician');
    t.float('cost');
    t.text('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.text('created_at').notNullable();
    t.index(['device_id', 'date'], 'home_service_log_device');
  });

  await knex.schema.createTable('home_device_files', (t) => {
    t.text('id').primary();
    t.text('device_id').notNullable().references('id').inTable('home_devices').onDelete('CASCADE');
    t.text('label').notNullable();
    // relative to DATA_DIR/home-inventory
    t.text('file_path').notNullable();
    // images only: a small webp beside the file
    t.text('thumb_path');
    t.text('file_type').notNullable().checkIn(['pdf', 'image', 'other']);
    t.text('content_type').notNullable();
    t.integer('bytes').notNullable();
    t.text('source').notNullable().defaultTo('user').checkIn(['user', 'ai']);
    t.text('comment');
    t.text('created_by').references('id').inTable('users').onDelete('SET NULL');
    t.text('created_at').notNullable();
    t.index(['device_id', 'created_at'], 'home_device_files_device');
  });

  await knex.schema.createTable('home_device_links', (t) => {
    t.text('id').primary();
    t.text('device_id').notNullable().references('id').inTable('home_devices').onDelete('CASCADE');
    t.text('category').notNullable().checkIn(['manual', 'support', 'download', 'video', 'other']);
    t.text('label').notNullable();
    t.text('url').notNullable();
    t.text('source').notNullable().defaultTo('user').checkIn(['user', 'ai']);
    t.text('created_at').notNullable();
    t.index(['device_id'], 'home_device_links_device');
    t.unique(['device_id', 'url'], { indexName: 'home_device_links_device_url' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('home_device_links');
  await knex.schema.dropTableIfExists('home_device_files');
  await knex.schema.dropTableIfExists('home_service_log');
  await knex.schema.dropTableIfExists('home_devices');
}
