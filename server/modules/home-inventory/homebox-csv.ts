// Homebox's CSV, both ways, as pure functions: a row to a device body (or the sentence why not), a
// device to a row, and a file's text to its rows. The import runs them in the parse worker
// (csv-tasks.ts), so a large or hostile file never holds the HTTP server's event loop; the export
// runs them on the main thread (a household's inventory is small). Homebox columns with no Hearth
// field are kept in the device's specifications; Hearth fields with no Homebox column travel as
// HB.field.* columns.
import type * as CsvParse from 'csv-parse/sync';
import { BadRequestError } from '../../errors.js';
import { CreateDeviceBody, DeviceCategory, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS, MAX_SPECS } from './schema.js';
import type { DeviceRecord } from './store.js';
import { lazyRequire } from '../../platform/lazy.js';
import { devicePageUrl } from './views.js';

// loaded by the first import, not at start
const loadCsvParse = lazyRequire<typeof CsvParse>('csv-parse/sync');

/** Homebox's item columns, in the order its export writes them (custom fields HB.field.<name> follow, by name). */
export const HOMEBOX_COLUMNS = [
  'HB.import_ref',
  'HB.location',
  'HB.tags',
  'HB.asset_id',
  'HB.archived',
  'HB.url',
  'HB.name',
  'HB.quantity',
  'HB.description',
  'HB.insured',
  'HB.notes',
  'HB.purchase_price',
  'HB.purchase_from',
  'HB.purchase_date',
  'HB.manufacturer',
  'HB.model_number',
  'HB.serial_number',
  'HB.lifetime_warranty',
  'HB.warranty_expires',
  'HB.warranty_details',
  'HB.sold_to',
  'HB.sold_price',
  'HB.sold_date',
  'HB.sold_notes',
] as const;
/** Older Homebox releases' names for the same columns. */
const ALIASES: Record<string, string> = { 'HB.labels': 'HB.tags', 'HB.purchase_time': 'HB.purchase_date', 'HB.sold_time': 'HB.sold_date' };

/** Hearth fields Homebox has no column for, carried as custom fields. */
const HEARTH_FIELDS = {
  owner: 'Hearth: owner',
  manufacturedDate: 'Hearth: manufactured',
  countryOfOrigin: 'Hearth: made in',
  supportUrl: 'Hearth: support page',
  supportPhone: 'Hearth: support phone',
} as const;
const HEARTH_FIELD_NAMES = new Set<string>(Object.values(HEARTH_FIELDS));

/** Homebox values with no Hearth field, kept as specifications under these names. */
const KEPT = {
  tags: 'Tags',
  quantity: 'Quantity',
  assetId: 'Asset ID',
  insured: 'Insured',
  archived: 'Archived',
  lifetime: 'Lifetime warranty',
  soldTo: 'Sold to',
  soldPrice: 'Sold price',
  soldDate: 'Sold on',
  soldNotes: 'Sold notes',
} as const;

/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell that starts with = + - @, a tab or
 * a carriage return is read as a formula by Excel, LibreOffice and Sheets, so the export prefixes it
 * with a single quote. A value that itself starts with a quote gets one too, which keeps the escaping
 * unambiguous: an exported cell starting with a quote always had exactly one quote added, and
 * importing Hearth's own file removes exactly that one ("-2+3" → "'-2+3" → "-2+3"; "'quoted" →
 * "''quoted" → "'quoted").
 */
const FORMULA_START = /^[=+\-@\t\r']/;
export const escapeCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);
export const unescapeCell = (value: string): string => (value.startsWith("'") ? value.slice(1) : value);

/**
 * A row Hearth itself exported: its HB.url is the device's page in Hearth, named by its import ref
 * (Homebox writes the item's own link there, or nothing). Only such rows had their cells escaped, so
 * only they are unescaped: a quote that opens a value in a file from Homebox is the household's own.
 */
export function isHearthRow(row: Record<string, string>): boolean {
  const ref = (row['HB.import_ref'] ?? '').trim();
  return ref !== '' && (row['HB.url'] ?? '').trim() === devicePageUrl(ref);
}

const truthy = (v: string | undefined) => /^(true|yes|1)$/i.test((v ?? '').trim());
const pad = (n: string) => n.padStart(2, '0');

/** A Homebox date (YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD or RFC 3339) as YYYY-MM-DD; null when empty or Homebox's zero date; undefined when unreadable. */
export function homeboxDate(value: string | undefined): string | null | undefined {
  const v = (value ?? '').trim();
  if (!v || v.startsWith('0001-01-01')) return null;
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ].*)?$/.exec(v);
  let ymd: [string, string, string] | null = m ? [m[1]!, pad(m[2]!), pad(m[3]!)] : null;
  if (!ymd) {
    m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
    if (m) ymd = [m[3]!, pad(m[1]!), pad(m[2]!)];
  }
  if (!ymd) return undefined;
  const date = `${ymd[0]}-${ymd[1]}-${ymd[2]}`;
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date ? undefined : date;
}

/** One Homebox row (header names already de-aliased) to a device body, or the sentence why not. */
export function fromHomeboxRow(row: Record<string, string>): { body: CreateDeviceBody; ref: string | null } | { reason: string } {
  const get = (k: string) => (row[k] ?? '').trim();
  const name = get('HB.name');
  if (!name) return { reason: 'It has no name (HB.name).' };
  const specs: Record<string, string> = {};
  const keep = (key: string, value: string) => {
    if (value) specs[key] = value;
  };
  const tags = get('HB.tags')
    .split(';')
    .map((t) => t.trim())
    .filter(Boolean);
  const categoryTag = tags.find((t) => (DeviceCategory.options as string[]).includes(t.toLowerCase()));
  keep(KEPT.tags, tags.filter((t) => t !== categoryTag).join('; '));
  const quantity = get('HB.quantity');
  if (quantity && quantity !== '1' && quantity !== '0') keep(KEPT.quantity, quantity);
  const assetId = get('HB.asset_id');
  if (assetId && !/^0*-?0*$/.test(assetId)) keep(KEPT.assetId, assetId);
  if (truthy(row['HB.insured'])) keep(KEPT.insured, 'yes');
  if (truthy(row['HB.archived'])) keep(KEPT.archived, 'yes');
  if (truthy(row['HB.lifetime_warranty'])) keep(KEPT.lifetime, 'yes');
  keep(KEPT.soldTo, get('HB.sold_to'));
  const soldPrice = Number(get('HB.sold_price') || 0);
  if (soldPrice) keep(KEPT.soldPrice, String(soldPrice));
  const soldDate = homeboxDate(row['HB.sold_date']);
  keep(KEPT.soldDate, soldDate ?? '');
  keep(KEPT.soldNotes, get('HB.sold_notes'));
  const hearth: Record<string, string> = {};
  for (const [column, value] of Object.entries(row)) {
    if (!column.startsWith('HB.field.')) continue;
    const field = column.slice('HB.field.'.length).trim();
    if (HEARTH_FIELD_NAMES.has(field)) hearth[field] = value.trim();
    else if (field) keep(field, value.trim());
  }
  const purchaseDate = homeboxDate(row['HB.purchase_date']);
  if (purchaseDate === undefined) return { reason: `Its purchase date “${get('HB.purchase_date')}” is not a date Hearth can read (use 2026-03-31).` };
  const warrantyExpires = homeboxDate(row['HB.warranty_expires']);
  if (warrantyExpires === undefined) return { reason: `Its warranty date “${get('HB.warranty_expires')}” is not a date Hearth can read (use 2026-03-31).` };
  const priceText = get('HB.purchase_price');
  const price = priceText ? Number(priceText) : 0;
  if (!Number.isFinite(price)) return { reason: `Its purchase price “${priceText}” is not a number.` };
  if (Object.keys(specs).length > MAX_SPECS) return { reason: `It has more than ${MAX_SPECS} custom fields.` };
  const notes = [get('HB.description'), get('HB.notes')].filter(Boolean).join('\n\n');
  const parsed = CreateDeviceBody.safeParse({
    name,
    brand: get('HB.manufacturer'),
    model: get('HB.model_number'),
    serialNumber: get('HB.serial_number'),
    category: (categoryTag?.toLowerCase() as DeviceCategory | undefined) ?? 'other',
    location: get('HB.location').split('/').pop()?.trim() ?? '',
    owner: hearth[HEARTH_FIELDS.owner] ?? '',
    manufacturedDate: hearth[HEARTH_FIELDS.manufacturedDate] ?? '',
    countryOfOrigin: hearth[HEARTH_FIELDS.countryOfOrigin] ?? '',
    supportUrl: hearth[HEARTH_FIELDS.supportUrl] ?? '',
    supportPhone: hearth[HEARTH_FIELDS.supportPhone] ?? '',
    specs,
    purchaseDate,
    purchasePrice: price > 0 ? price : null,
    purchaseStore: get('HB.purchase_from'),
    warrantyExpires,
    warrantyNotes: get('HB.warranty_details'),
    notes,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { reason: `Its ${issue.path.join('.') || 'values'} cannot be used: ${issue.message.replace(/\.$/, '')}.` };
  }
  return { body: parsed.data, ref: get('HB.import_ref') || null };
}

/** One device as a Homebox row. */
export function toHomeboxRow(d: DeviceRecord): Record<string, string> {
  const specs = { ...d.specs };
  const take = (k: string) => {
    const v = specs[k];
    delete specs[k];
    return v ?? '';
  };
  const tags = [d.category, ...take(KEPT.tags).split(';')].map((t) => t.trim()).filter(Boolean).join('; ');
  const row: Record<string, string> = {
    'HB.import_ref': d.id,
    'HB.location': d.location ?? '',
    'HB.tags': tags,
    'HB.asset_id': take(KEPT.assetId),
    'HB.archived': take(KEPT.archived) ? 'true' : 'false',
    'HB.url': devicePageUrl(d.id),
    'HB.name': d.name,
    'HB.quantity': take(KEPT.quantity) || '1',
    'HB.description': '',
    'HB.insured': take(KEPT.insured) ? 'true' : 'false',
    'HB.notes': d.notes ?? '',
    'HB.purchase_price': d.purchasePrice === null ? '0' : String(d.purchasePrice),
    'HB.purchase_from': d.purchaseStore ?? '',
    'HB.purchase_date': d.purchaseDate ?? '',
    'HB.manufacturer': d.brand ?? '',
    'HB.model_number': d.model ?? '',
    'HB.serial_number': d.serialNumber ?? '',
    'HB.lifetime_warranty': take(KEPT.lifetime) ? 'true' : 'false',
    'HB.warranty_expires': d.warrantyExpires ?? '',
    'HB.warranty_details': d.warrantyNotes ?? '',
    'HB.sold_to': take(KEPT.soldTo),
    'HB.sold_price': take(KEPT.soldPrice) || '0',
    'HB.sold_date': take(KEPT.soldDate),
    'HB.sold_notes': take(KEPT.soldNotes),
  };
  const hearth: Record<string, string | null> = {
    [HEARTH_FIELDS.owner]: d.owner,
    [HEARTH_FIELDS.manufacturedDate]: d.manufacturedDate,
    [HEARTH_FIELDS.countryOfOrigin]: d.countryOfOrigin,
    [HEARTH_FIELDS.supportUrl]: d.supportUrl,
    [HEARTH_FIELDS.supportPhone]: d.supportPhone,
  };
  for (const [k, v] of Object.entries(hearth)) if (v) row[`HB.field.${k}`] = v;
  for (const [k, v] of Object.entries(specs)) row[`HB.field.${k}`] = v;
  return row;
}

const notCsv = (why: string) =>
  new BadRequestError(`This file is not a CSV Hearth can read${why ? ` (${why})` : ''}. Export it from Homebox again and upload that file.`, undefined, 'invalid_csv');
const tooManyColumns = () =>
  new BadRequestError(`This file has more than ${MAX_IMPORT_COLUMNS.toLocaleString('en')} columns; a Homebox export has a few dozen. Export the items from Homebox again and upload that file.`, undefined, 'too_many_columns');
const tooManyRows = () =>
  new BadRequestError(`This file has more than ${MAX_IMPORT_ROWS.toLocaleString('en')} items; Hearth imports up to ${MAX_IMPORT_ROWS.toLocaleString('en')} at a time. Split it and import each part.`, undefined, 'too_many_rows');

/** How often `ch` occurs in text[0, end), counting no further than `cap` + 1. */
function countUpTo(text: string, ch: string, end: number, cap: number): number {
  let n = 0;
  for (let i = text.indexOf(ch); i >= 0 && i < end && n <= cap; i = text.indexOf(ch, i + 1)) n++;
  return n;
}

/**
 * The first line's delimiter (a tab when it has tabs and no commas), or the 400 for a header of
 * more than MAX_IMPORT_COLUMNS columns. Cheap before any parsing: counting stops at the cap, so a
 * 1.6 MB header of 100,000 columns costs a thousand indexOf steps. (Quotes are not looked at, so a
 * quoted comma counts as a column here; the parser checks every record's real count again.)
 */
export function checkHomeboxHeader(text: string): ',' | '\t' {
  const nl = text.indexOf('\n');
  const end = nl < 0 ? text.length : nl;
  const commas = countUpTo(text, ',', end, MAX_IMPORT_COLUMNS);
  const delimiter = commas === 0 && text.slice(0, end).includes('\t') ? '\t' : ',';
  if ((delimiter === ',' ? commas : countUpTo(text, '\t', end, MAX_IMPORT_COLUMNS)) + 1 > MAX_IMPORT_COLUMNS) throw tooManyColumns();
  return delimiter;
}

/**
 * Rows of a Homebox CSV (or TSV) file; 400 with a sentence when it is not one. The caps are
 * checked before and while parsing: the header's width first, then every record's width as it is
 * read, and the parser stops at the first row past MAX_IMPORT_ROWS instead of reading the rest.
 */
export function readHomeboxCsv(text: string): Array<{ line: number; row: Record<string, string> }> {
  const clean = text.replace(/^\uFEFF/, '');
  const delimiter = checkHomeboxHeader(clean);
  let records: string[][];
  let wide = false;
  try {
    records = loadCsvParse().parse(clean, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      bom: true,
      max_record_size: 1_000_000,
      to: MAX_IMPORT_ROWS + 2, // the header, the most rows Hearth takes, and one more to know there are more
      on_record: (record: string[]) => {
        if (record.length > MAX_IMPORT_COLUMNS) {
          wide = true;
          throw new Error('too many columns');
        }
        return record;
      },
    }) as string[][];
  } catch (err) {
    if (wide) throw tooManyColumns();
    throw notCsv(err instanceof Error ? (err.message.replace(/^[A-Z_]+:\s*/, '').split('\n')[0] ?? '') : '');
  }
  const [head, ...body] = records;
  const columns = (head ?? []).map((c) => ALIASES[c.trim()] ?? c.trim());
  if (!columns.includes('HB.name')) throw new BadRequestError('This is not a Homebox CSV: it has no HB.name column. Export the items from Homebox and upload that file.', undefined, 'invalid_csv');
  if (body.length > MAX_IMPORT_ROWS) throw tooManyRows();
  return body.map((cells, i) => {
    const row = Object.fromEntries(columns.map((c, j) => [c, cells[j] ?? '']));
    return { line: i + 2, row: isHearthRow(row) ? Object.fromEntries(Object.entries(row).map(([k, v]) => [k, unescapeCell(v)])) : row };
  });
}

/** One row of a file, read: the device to add (with Homebox's import ref), or why it is skipped. */
export type HomeboxRowResult = { line: number; body: CreateDeviceBody; ref: string | null } | { line: number; reason: string };

/** A whole Homebox file to rows, each mapped (what the parse worker runs). */
export function mapHomeboxFile(text: string): HomeboxRowResult[] {
  return readHomeboxCsv(text).map(({ line, row }) => {
    const mapped = fromHomeboxRow(row);
    return 'reason' in mapped ? { line, reason: mapped.reason } : { line, body: mapped.body, ref: mapped.ref };
  });
}
