// Shopping (issue 38): the household's shared lists, their items (who added each, when it was
// ticked) and the household's item history, which suggests names as a member types.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('shopping_lists', (t) => {
    t.string('id').primary();
    t.string('name').notNullable();
    t.integer('sort_order').notNullable().defaultTo(0);
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
  });
  await knex.schema.createTable('shopping_items', (t) => {
    t.string('id').primary();
    t.string('list_id').notNullable().references('id').inTable('shopping_lists').onDelete('CASCADE');
    t.string('name').notNullable();
    t.string('quantity');
    t.string('note');
    t.string('category').notNullable();
    t.boolean('checked').notNullable().defaultTo(false);
    t.string('checked_at');
    t.integer('position').notNullable();
    // the member who added it; the name stays when the member is removed from the household
    t.string('added_by').references('id').inTable('users').onDelete('SET NULL');
    t.string('added_by_name').notNullable();
    t.string('barcode');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.index(['list_id', 'position']);
  });
  // one row per item name the household has put on a list (name_key: the name in lower case)
  await knex.schema.createTable('shopping_history', (t) => {
    t.string('name_key').primary();
    t.string('name').notNullable();
    t.string('category').notNullable();
    t.integer('times').notNullable().defaultTo(0);
    t.string('last_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('shopping_history');
  await knex.schema.dropTable('shopping_items');
  await knex.schema.dropTable('shopping_lists');
}
