// Moving the inventory in and out: a JSON export (every device with its files' labels, links and
// service log; no file paths, no extracted text), and Homebox's CSV with its HB.* columns both ways,
// so a household can come from Homebox and go back. Homebox columns with no Hearth field are kept
// in the device's specifications; Hearth fields with no Homebox column travel as HB.field.* columns.
// An import writes all its rows or none; rows that cannot be read are listed with a sentence.
import { randomUUID } from 'node:crypto';
import type * as CsvParse from 'csv-parse/sync';
import type * as CsvStringify from 'csv-stringify/sync';
import type { UserActor } from '../../actor.js';
import { BadRequestError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { lazyRequire } from '../../platform/lazy.js';
import { CreateDeviceBody, DeviceCategory, MAX_IMPORT_ROWS, MAX_SPECS, type ServiceEntry } from './schema.js';
import { newDeviceRecord } from './service.js';
import type { DeviceRecord, HomeInventoryStore } from './store.js';
import { devicePageUrl, linkView, serviceView } from './views.js';

// loaded by the first import or export, not at start
const loadCsvParse = lazyRequire<typeof CsvParse>('csv-parse/sync');
const loadCsvStringify = lazyRequire<typeof CsvStringify>('csv-stringify/sync');

export const IMPORTED_NOT_LOOKED_UP = 'Not looked up yet: this device came from an imported file.';

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
    [HEARTH_FIELDS.supportUrl]: d.supportUrl,
    [HEARTH_FIELDS.supportPhone]: d.supportPhone,
  };
  for (const [k, v] of Object.entries(hearth)) if (v) row[`HB.field.${k}`] = v;
  for (const [k, v] of Object.entries(specs)) row[`HB.field.${k}`] = v;
  return row;
}

/** Rows of a Homebox CSV (or TSV) file; 400 with a sentence when it is not one. */
export function readHomeboxCsv(text: string): Array<{ line: number; row: Record<string, string> }> {
  const clean = text.replace(/^\uFEFF/, '');
  const header = clean.slice(0, clean.search(/\r?\n|$/));
  const delimiter = header.includes('\t') && !header.includes(',') ? '\t' : ',';
  let records: string[][];
  try {
    records = loadCsvParse().parse(clean, { delimiter, relax_column_count: true, skip_empty_lines: true, bom: true, max_record_size: 1_000_000 }) as string[][];
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^[A-Z_]+:\s*/, '').split('\n')[0] : '';
    throw new BadRequestError(`This file is not a CSV Hearth can read${why ? ` (${why})` : ''}. Export it from Homebox again and upload that file.`, undefined, 'invalid_csv');
  }
  const [head, ...body] = records;
  const columns = (head ?? []).map((c) => ALIASES[c.trim()] ?? c.trim());
  if (!columns.includes('HB.name')) throw new BadRequestError('This is not a Homebox CSV: it has no HB.name column. Export the items from Homebox and upload that file.', undefined, 'invalid_csv');
  if (body.length > MAX_IMPORT_ROWS) throw new BadRequestError(`This file has ${body.length} items; Hearth imports up to ${MAX_IMPORT_ROWS} at a time. Split it and import each part.`, undefined, 'too_many_rows');
  return body.map((cells, i) => ({ line: i + 2, row: Object.fromEntries(columns.map((c, j) => [c, cells[j] ?? ''])) }));
}

export interface HomeTransferDeps {
  store: HomeInventoryStore;
  clock: Clock;
}

export interface JsonExportDevice {
  id: string;
  name: string;
  fields: Omit<DeviceRecord, 'id' | 'name' | 'manualPath' | 'manualText' | 'photoPath' | 'mainPhotoId' | 'warrantyNudged30For' | 'warrantyNudged7For' | 'createdBy' | 'rawLabelText'>;
  rawLabelText: string | null;
  files: Array<{ label: string; fileType: string; contentType: string; bytes: number; source: string; comment: string | null; createdAt: string }>;
  links: ReturnType<typeof linkView>[];
  serviceLog: ServiceEntry[];
}

export class HomeTransferService {
  constructor(private readonly deps: HomeTransferDeps) {}

  async exportJson(_actor: UserActor): Promise<{ exportedAt: string; devices: JsonExportDevice[] }> {
    const list = await this.deps.store.listDevices();
    const devices: JsonExportDevice[] = [];
    for (const summary of list) {
      const d = (await this.deps.store.getDevice(summary.id))!;
      const [files, links, service] = await Promise.all([this.deps.store.listFiles(d.id), this.deps.store.listLinks(d.id), this.deps.store.listService(d.id)]);
      const { id, name, manualPath: _mp, manualText: _mt, photoPath: _pp, mainPhotoId: _mp2, warrantyNudged30For: _n30, warrantyNudged7For: _n7, createdBy: _cb, rawLabelText, ...fields } = d;
      devices.push({
        id,
        name,
        fields,
        rawLabelText,
        files: files.map((f) => ({ label: f.label, fileType: f.fileType, contentType: f.contentType, bytes: f.bytes, source: f.source, comment: f.comment, createdAt: f.createdAt })),
        links: links.map(linkView),
        serviceLog: service.map(serviceView),
      });
    }
    return { exportedAt: this.deps.clock.now().toISOString(), devices };
  }

  async exportHomebox(_actor: UserActor): Promise<string> {
    const rows = (await this.deps.store.listDevices()).map(toHomeboxRow);
    const fields = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => k.startsWith('HB.field.'))))].sort();
    const columns = [...HOMEBOX_COLUMNS, ...fields];
    return loadCsvStringify().stringify(rows, { header: true, columns, record_delimiter: '\n' });
  }

  /** Writes every readable row in one transaction; the others are listed with a sentence. */
  async importHomebox(actor: UserActor, text: string): Promise<{ imported: number; skipped: Array<{ row: number; reason: string }> }> {
    const rows = readHomeboxCsv(text);
    const skipped: Array<{ row: number; reason: string }> = [];
    const now = this.deps.clock.now().toISOString();
    const seen = new Set<string>();
    const imported = await this.deps.store.transaction(async (tx) => {
      let count = 0;
      for (const { line, row } of rows) {
        const mapped = fromHomeboxRow(row);
        if ('reason' in mapped) {
          skipped.push({ row: line, reason: mapped.reason });
          continue;
        }
        const ref = mapped.ref && /^[A-Za-z0-9-]{8,64}$/.test(mapped.ref) ? mapped.ref : null;
        if (ref && (seen.has(ref) || (await tx.getDevice(ref)))) {
          skipped.push({ row: line, reason: `“${mapped.body.name}” is already in the inventory (import ref ${ref}).` });
          continue;
        }
        if (ref) seen.add(ref);
        const record = newDeviceRecord(ref ?? randomUUID(), mapped.body, actor.id, now);
        record.lookupError = IMPORTED_NOT_LOOKED_UP;
        await tx.insertDevice(record);
        count++;
      }
      return count;
    });
    return { imported, skipped };
  }
}
