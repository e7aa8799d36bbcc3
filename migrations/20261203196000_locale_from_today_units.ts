// Locale (issue 39): the household's units move from Today's own setting (today.units) into the
// household's language-and-region setting (locale.household), the one source every answer reads.
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const old = await knex('app_settings').where({ key: 'today.units' }).first<{ value: string } | undefined>('value');
  if (!old) return;
  let units: unknown;
  try {
    units = JSON.parse(old.value);
  } catch {
    units = undefined;
  }
  if (units === 'metric' || units === 'imperial') {
    const row = await knex('app_settings').where({ key: 'locale.household' }).first<{ value: string } | undefined>('value');
    let current: Record<string, unknown>;
    try {
      current = row ? (JSON.parse(row.value) as Record<string, unknown>) : {};
    } catch {
      current = {};
    }
    const value = JSON.stringify({ ...current, units: current.units ?? units });
    await knex('app_settings').insert({ key: 'locale.household', value, updated_at: new Date().toISOString() }).onConflict('key').merge();
  }
  await knex('app_settings').where({ key: 'today.units' }).delete();
}

export async function down(knex: Knex): Promise<void> {
  const row = await knex('app_settings').where({ key: 'locale.household' }).first<{ value: string } | undefined>('value');
  if (!row) return;
  const units = (JSON.parse(row.value) as { units?: unknown }).units;
  if (units === 'metric' || units === 'imperial') {
    await knex('app_settings').insert({ key: 'today.units', value: JSON.stringify(units), updated_at: new Date().toISOString() }).onConflict('key').merge();
  }
}
