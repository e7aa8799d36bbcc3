// Home inventory tables: home_devices, home_service_log, home_device_files, home_device_links.
// Rows are mapped to camelCase records; a miss is null. No rules here: the services decide who
// may do what (the inventory is the household's).
import type { Knex } from 'knex';
import type { DeviceCategory, FileSource, FileType, LinkCategory, LookupStatus, ServiceType } from './schema.js';

/** A device row as the services use it (every column, specs parsed). */
export interface DeviceRecord {
  id: string;
  name: string;
  brand: string | null;
  model: string | null;
  serialNumber: string | null;
  category: DeviceCategory;
  location: string | null;
  owner: string | null;
  rawLabelText: string | null;
  specs: Record<string, string>;
  manufacturedDate: string | null;
  countryOfOrigin: string | null;
  purchaseDate: string | null;
  purchasePrice: number | null;
  purchaseStore: string | null;
  warrantyExpires: string | null;
  warrantyNotes: string | null;
  supportUrl: string | null;
  supportPhone: string | null;
  manualUrl: string | null;
  manualPath: string | null;
  manualText: string | null;
  manualFetchedAt: string | null;
  photoPath: string | null;
  mainPhotoId: string | null;
  lookupStatus: LookupStatus;
  lookupQueuedAt: string | null;
  lookupError: string | null;
  notes: string | null;
  warrantyNudged30For: string | null;
  warrantyNudged7For: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Columns a write may set (id and createdAt only on insert). */
export type DevicePatch = Partial<Omit<DeviceRecord, 'id' | 'createdAt'>>;

export interface FileRecord {
  id: string;
  deviceId: string;
  label: string;
  filePath: string;
  thumbPath: string | null;
  fileType: FileType;
  contentType: string;
  bytes: number;
  source: FileSource;
  comment: string | null;
  createdBy: string | null;
  createdAt: string;
}

export interface LinkRecord {
  id: string;
  deviceId: string;
  category: LinkCategory;
  label: string;
  url: string;
  source: FileSource;
  createdAt: string;
}

export interface ServiceRecord {
  id: string;
  deviceId: string;
  date: string;
  type: ServiceType;
  description: string;
  technician: string | null;
  cost: number | null;
  createdBy: string | null;
  createdAt: string;
}

const DEVICE_COLUMNS: Record<keyof DeviceRecord, string> = {
  id: 'id',
  name: 'name',
  brand: 'brand',
  model: 'model',
  serialNumber: 'serial_number',
  category: 'category',
  location: 'location',
  owner: 'owner',
  rawLabelText: 'raw_label_text',
  specs: 'specs',
  manufacturedDate: 'manufactured_date',
  countryOfOrigin: 'country_of_origin',
  purchaseDate: 'purchase_date',
  purchasePrice: 'purchase_price',
  purchaseStore: 'purchase_store',
  warrantyExpires: 'warranty_expires',
  warrantyNotes: 'warranty_notes',
  supportUrl: 'support_url',
  supportPhone: 'support_phone',
  manualUrl: 'manual_url',
  manualPath: 'manual_path',
  manualText: 'manual_text',
  manualFetchedAt: 'manual_fetched_at',
  photoPath: 'photo_path',
  mainPhotoId: 'main_photo_id',
  lookupStatus: 'lookup_status',
  lookupQueuedAt: 'lookup_queued_at',
  lookupError: 'lookup_error',
  notes: 'notes',
  warrantyNudged30For: 'warranty_nudged_30_for',
  warrantyNudged7For: 'warranty_nudged_7_for',
  createdBy: 'created_by',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/** The list's columns: everything but the big texts. */
const SUMMARY_KEYS = (Object.keys(DEVICE_COLUMNS) as (keyof DeviceRecord)[]).filter((k) => k !== 'manualText' && k !== 'rawLabelText');

function parseSpecs(s: unknown): Record<string, string> {
  if (typeof s !== 'string') return {};
  try {
    const v = JSON.parse(s) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

function toDevice(row: Record<string, unknown>): DeviceRecord {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(DEVICE_COLUMNS)) out[key] = row[column] ?? null;
  out.specs = parseSpecs(row.specs);
  // manual text is left out of list reads: empty there, never undefined
  out.manualText = (row.manual_text as string | undefined) ?? null;
  out.rawLabelText = (row.raw_label_text as string | undefined) ?? null;
  return out as unknown as DeviceRecord;
}

function toColumns(patch: DevicePatch | DeviceRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    const column = DEVICE_COLUMNS[key as keyof DeviceRecord];
    if (!column || value === undefined) continue;
    out[column] = key === 'specs' ? JSON.stringify(value ?? {}) : value;
  }
  return out;
}

const toFile = (r: Record<string, unknown>): FileRecord => ({
  id: r.id as string,
  deviceId: r.device_id as string,
  label: r.label as string,
  filePath: r.file_path as string,
  thumbPath: (r.thumb_path as string | null) ?? null,
  fileType: r.file_type as FileType,
  contentType: r.content_type as string,
  bytes: Number(r.bytes),
  source: r.source as FileSource,
  comment: (r.comment as string | null) ?? null,
  createdBy: (r.created_by as string | null) ?? null,
  createdAt: r.created_at as string,
});

const toLink = (r: Record<string, unknown>): LinkRecord => ({
  id: r.id as string,
  deviceId: r.device_id as string,
  category: r.category as LinkCategory,
  label: r.label as string,
  url: r.url as string,
  source: r.source as FileSource,
  createdAt: r.created_at as string,
});

const toService = (r: Record<string, unknown>): ServiceRecord => ({
  id: r.id as string,
  deviceId: r.device_id as string,
  date: r.date as string,
  type: r.type as ServiceType,
  description: r.description as string,
  technician: (r.technician as string | null) ?? null,
  cost: r.cost === null || r.cost === undefined ? null : Number(r.cost),
  createdBy: (r.created_by as string | null) ?? null,
  createdAt: r.created_at as string,
});

/** Escapes LIKE's wildcards so a search for "50%" means the characters. */
const likeTerm = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class HomeInventoryStore {
  constructor(private readonly db: Knex) {}

  // ---- devices -------------------------------------------------------------------------------

  async insertDevice(d: DeviceRecord): Promise<void> {
    await this.db('home_devices').insert(toColumns(d));
  }

  async getDevice(id: string): Promise<DeviceRecord | null> {
    const row = (await this.db('home_devices').where({ id }).first()) as Record<string, unknown> | undefined;
    return row ? toDevice(row) : null;
  }

  /** Sets the given columns; false when there is no such device. */
  async updateDevice(id: string, patch: DevicePatch): Promise<boolean> {
    const columns = toColumns(patch);
    if (Object.keys(columns).length === 0) return (await this.getDevice(id)) !== null;
    return (await this.db('home_devices').where({ id }).update(columns)) > 0;
  }

  async deleteDevice(id: string): Promise<boolean> {
    return (await this.db('home_devices').where({ id }).delete()) > 0;
  }

  /**
   * Devices for lists (no manual or label text), name order. Every word of `q` must appear in one
   * of name, brand, model, category or location (case-insensitive).
   */
  async listDevices(opts: { q?: string; category?: DeviceCategory; limit?: number; offset?: number; ids?: string[] } = {}): Promise<DeviceRecord[]> {
    const q = this.filtered(this.db('home_devices').select(SUMMARY_KEYS.map((k) => DEVICE_COLUMNS[k])), opts);
    q.orderByRaw('name COLLATE NOCASE, id');
    if (opts.limit) q.limit(opts.limit);
    if (opts.offset) q.offset(opts.offset);
    return ((await q) as Record<string, unknown>[]).map(toDevice);
  }

  /** How many devices listDevices would give without a limit. */
  async countDevices(opts: { q?: string; category?: DeviceCategory } = {}): Promise<number> {
    const row = (await this.filtered(this.db('home_devices'), opts).count({ n: '*' }).first()) as { n: number } | undefined;
    return Number(row?.n ?? 0);
  }

  private filtered(q: Knex.QueryBuilder, opts: { q?: string; category?: DeviceCategory; ids?: string[] }): Knex.QueryBuilder {
    if (opts.category) q.where('category', opts.category);
    if (opts.ids) q.whereIn('id', opts.ids);
    for (const word of (opts.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8)) {
      const term = likeTerm(word);
      q.where((w) => {
        for (const c of ['name', 'brand', 'model', 'category', 'location']) w.orWhereRaw(`${c} LIKE ? ESCAPE '\\'`, [term]);
      });
    }
    return q;
  }

  /** Devices per category (for the category chips). */
  async countByCategory(): Promise<Partial<Record<DeviceCategory, number>>> {
    const rows = (await this.db('home_devices').select('category').count({ n: '*' }).groupBy('category')) as { category: DeviceCategory; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.category, Number(r.n)]));
  }

  /** Devices whose warranty ends on or before `until` (YYYY-MM-DD), soonest first. */
  async listWarrantiesUntil(until: string): Promise<DeviceRecord[]> {
    const rows = (await this.db('home_devices')
      .select(SUMMARY_KEYS.map((k) => DEVICE_COLUMNS[k]))
      .whereNotNull('warranty_expires')
      .where('warranty_expires', '<=', until)
      .orderBy('warranty_expires')) as Record<string, unknown>[];
    return rows.map(toDevice);
  }

  async listByLookupStatus(status: LookupStatus): Promise<DeviceRecord[]> {
    return ((await this.db('home_devices').where('lookup_status', status)) as Record<string, unknown>[]).map(toDevice);
  }

  // ---- files ---------------------------------------------------------------------------------

  async insertFile(f: FileRecord): Promise<void> {
    await this.db('home_device_files').insert({
      id: f.id,
      device_id: f.deviceId,
      label: f.label,
      file_path: f.filePath,
      thumb_path: f.thumbPath,
      file_type: f.fileType,
      content_type: f.contentType,
      bytes: f.bytes,
      source: f.source,
      comment: f.comment,
      created_by: f.createdBy,
      created_at: f.createdAt,
    });
  }

  async listFiles(deviceId: string): Promise<FileRecord[]> {
    return ((await this.db('home_device_files').where({ device_id: deviceId }).orderBy([{ column: 'created_at' }, { column: 'id' }])) as Record<string, unknown>[]).map(toFile);
  }

  async countFiles(deviceId: string): Promise<number> {
    const row = (await this.db('home_device_files').where({ device_id: deviceId }).count({ n: '*' }).first()) as { n: number } | undefined;
    return Number(row?.n ?? 0);
  }

  async getFile(deviceId: string, fileId: string): Promise<FileRecord | null> {
    const row = (await this.db('home_device_files').where({ device_id: deviceId, id: fileId }).first()) as Record<string, unknown> | undefined;
    return row ? toFile(row) : null;
  }

  async updateFileComment(deviceId: string, fileId: string, comment: string | null): Promise<boolean> {
    return (await this.db('home_device_files').where({ device_id: deviceId, id: fileId }).update({ comment })) > 0;
  }

  async deleteFile(deviceId: string, fileId: string): Promise<boolean> {
    return (await this.db('home_device_files').where({ device_id: deviceId, id: fileId }).delete()) > 0;
  }

  // ---- links ---------------------------------------------------------------------------------

  /** Adds a link unless the device already has one to the same URL; true when added. */
  async insertLink(l: LinkRecord): Promise<boolean> {
    const rows = await this.db('home_device_links')
      .insert({ id: l.id, device_id: l.deviceId, category: l.category, label: l.label, url: l.url, source: l.source, created_at: l.createdAt })
      .onConflict(['device_id', 'url'])
      .ignore();
    return Array.isArray(rows) ? rows.length > 0 && Number(rows[0]) > 0 : Boolean(rows);
  }

  async listLinks(deviceId: string): Promise<LinkRecord[]> {
    return ((await this.db('home_device_links').where({ device_id: deviceId }).orderBy([{ column: 'category' }, { column: 'created_at' }])) as Record<string, unknown>[]).map(toLink);
  }

  async deleteLink(deviceId: string, linkId: string): Promise<boolean> {
    return (await this.db('home_device_links').where({ device_id: deviceId, id: linkId }).delete()) > 0;
  }

  // ---- service log ---------------------------------------------------------------------------

  async insertService(s: ServiceRecord): Promise<void> {
    await this.db('home_service_log').insert({
      id: s.id,
      device_id: s.deviceId,
      date: s.date,
      type: s.type,
      description: s.description,
      technician: s.technician,
      cost: s.cost,
      created_by: s.createdBy,
      created_at: s.createdAt,
    });
  }

  /** Newest first. */
  async listService(deviceId: string): Promise<ServiceRecord[]> {
    return ((await this.db('home_service_log').where({ device_id: deviceId }).orderBy([{ column: 'date', order: 'desc' }, { column: 'created_at', order: 'desc' }])) as Record<string, unknown>[]).map(
      toService,
    );
  }

  async getService(deviceId: string, entryId: string): Promise<ServiceRecord | null> {
    const row = (await this.db('home_service_log').where({ device_id: deviceId, id: entryId }).first()) as Record<string, unknown> | undefined;
    return row ? toService(row) : null;
  }

  async updateService(deviceId: string, entryId: string, patch: Partial<Pick<ServiceRecord, 'date' | 'type' | 'description' | 'technician' | 'cost'>>): Promise<boolean> {
    const columns = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(columns).length === 0) return (await this.getService(deviceId, entryId)) !== null;
    return (await this.db('home_service_log').where({ device_id: deviceId, id: entryId }).update(columns)) > 0;
  }

  async deleteService(deviceId: string, entryId: string): Promise<boolean> {
    return (await this.db('home_service_log').where({ device_id: deviceId, id: entryId }).delete()) > 0;
  }

  /** Runs `fn` in one transaction over a store bound to it (an import writes all its rows or none). */
  async transaction<T>(fn: (store: HomeInventoryStore) => Promise<T>): Promise<T> {
    return this.db.transaction((trx) => fn(new HomeInventoryStore(trx)));
  }
}
