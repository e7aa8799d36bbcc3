// A device's country of origin, apart from its date of manufacture (issue 29: the one "Made in"
// field asked for "2023-04" while labels say "Made in Germany"). Existing values that name no date
// (no digit in them: "Germany", "Made in China") move to the new column, without "Made in".
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasColumn('home_devices', 'country_of_origin')) return;
  await knex.schema.alterTable('home_devices', (t) => {
    t.text('country_of_origin');
  });
  const rows = (await knex('home_devices').whereNotNull('manufactured_date').select('id', 'manufactured_date')) as Array<{ id: string; manufactured_date: string }>;
  for (const r of rows) {
    const value = r.manufactured_date.trim();
    if (/\d/.test(value)) continue;
    const country = value.replace(/^(made|manufactured|assembled)\s+in\s+/i, '').trim();
    await knex('home_devices').where({ id: r.id }).update({ country_of_origin: country || null, manufactured_date: null });
  }
}

export async function down(knex: Knex): Promise<void> {
  if (!(await knex.schema.hasColumn('home_devices', 'country_of_origin'))) return;
  // the country goes back where it was kept before, where no date took its place
  await knex('home_devices').whereNull('manufactured_date').whereNotNull('country_of_origin').update({ manufactured_date: knex.ref('country_of_origin') });
  await knex.schema.alterTable('home_devices', (t) => {
    t.dropColumn('country_of_origin');
  });
}
