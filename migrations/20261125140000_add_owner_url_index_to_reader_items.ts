// An import checks every link of the file against the member's saved links (duplicates are not
// added twice): with an (owner_id, url) index each check is an index lookup instead of a scan of
// the member's whole library per batch of links.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS reader_items_owner_url ON reader_items (owner_id, url)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS reader_items_owner_url');
}
