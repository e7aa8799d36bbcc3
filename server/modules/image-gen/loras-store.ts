// Image generation's LoRA library and who may use it: image_loras, image_lora_categories,
// image_lora_grants, image_category_grants. Rows are mapped to camelCase records; a miss is null.
// No rules here: the LoRA service decides (grants are an admin's; protections are read from the
// content module's dials).
import type { Knex } from 'knex';
import { json, num, str, type Row } from './row-values.js';
import type { GrantState } from './schema.js';

export interface LoraRecord {
  id: string;
  name: string;
  /** The file name under the engine's loras folder. */
  filePath: string;
  fileBytes: number | null;
  triggerTokens: string[];
  defaultWeight: number;
  minWeight: number;
  maxWeight: number;
  categoryId: string | null;
  styleLabel: string | null;
  isStylistic: boolean;
  isAdult: boolean;
  enabled: boolean;
  whenToUse: string | null;
  exampleRequests: string[];
  externalId: string | null;
  baseFamilies: string[];
  createdAt: string;
  updatedAt: string;
}
export type LoraPatch = Partial<Omit<LoraRecord, 'id' | 'createdAt'>>;

export interface CategoryRecord {
  id: string;
  name: string;
  sortOrder: number;
  enabled: boolean;
  createdAt: string;
  loraCount: number;
  hasAdult: boolean;
}

function toLora(r: Row): LoraRecord {
  return {
    id: String(r.id),
    name: String(r.name),
    filePath: String(r.file_path),
    fileBytes: num(r.file_bytes),
    triggerTokens: json(r.trigger_tokens, []),
    defaultWeight: Number(r.default_weight),
    minWeight: Number(r.min_weight),
    maxWeight: Number(r.max_weight),
    categoryId: str(r.category_id),
    styleLabel: str(r.style_label),
    isStylistic: Boolean(r.is_stylistic),
    isAdult: Boolean(r.is_adult),
    enabled: Boolean(r.enabled),
    whenToUse: str(r.when_to_use),
    exampleRequests: json(r.example_requests, []),
    externalId: str(r.external_id),
    baseFamilies: json(r.base_families, []),
    createdAt: String(r.created_at),
    updatedAt: String(r.updated_at),
  };
}

const LORA_COLUMNS: Record<keyof LoraPatch, string> = {
  name: 'name',
  filePath: 'file_path',
  fileBytes: 'file_bytes',
  triggerTokens: 'trigger_tokens',
  defaultWeight: 'default_weight',
  minWeight: 'min_weight',
  maxWeight: 'max_weight',
  categoryId: 'category_id',
  styleLabel: 'style_label',
  isStylistic: 'is_stylistic',
  isAdult: 'is_adult',
  enabled: 'enabled',
  whenToUse: 'when_to_use',
  exampleRequests: 'example_requests',
  externalId: 'external_id',
  baseFamilies: 'base_families',
  updatedAt: 'updated_at',
};
const LORA_JSON = new Set(['triggerTokens', 'exampleRequests', 'baseFamilies']);

function loraRow(p: LoraPatch): Row {
  const row: Row = {};
  for (const [k, v] of Object.entries(p)) {
    const col = LORA_COLUMNS[k as keyof LoraPatch] as string | undefined;
    if (v === undefined || !col) continue;
    row[col] = LORA_JSON.has(k) ? JSON.stringify(v) : v;
  }
  return row;
}

export class ImageLorasStore {
  constructor(private readonly db: Knex) {}

  // ---- LoRAs -------------------------------------------------------------------------------
  async loras(): Promise<LoraRecord[]> {
    const rows = await this.db('image_loras').orderBy([{ column: 'name', order: 'asc' }, { column: 'id', order: 'asc' }]).select<Row[]>('*');
    return rows.map(toLora);
  }

  async lora(id: string): Promise<LoraRecord | null> {
    const r = await this.db('image_loras').where({ id }).first<Row | undefined>();
    return r ? toLora(r) : null;
  }

  async loraByFile(filePath: string): Promise<LoraRecord | null> {
    const r = await this.db('image_loras').where({ file_path: filePath }).first<Row | undefined>();
    return r ? toLora(r) : null;
  }

  async loraByExternalId(externalId: string): Promise<LoraRecord | null> {
    const r = await this.db('image_loras').where({ external_id: externalId }).first<Row | undefined>();
    return r ? toLora(r) : null;
  }

  async insertLora(l: LoraRecord): Promise<void> {
    await this.db('image_loras').insert({ id: l.id, created_at: l.createdAt, ...loraRow(l) });
  }

  async updateLora(id: string, patch: LoraPatch): Promise<void> {
    const row = loraRow(patch);
    if (Object.keys(row).length) await this.db('image_loras').where({ id }).update(row);
  }

  async deleteLora(id: string): Promise<void> {
    await this.db('image_loras').where({ id }).delete();
  }

  // ---- categories --------------------------------------------------------------------------
  async categories(): Promise<CategoryRecord[]> {
    const rows = await this.db('image_lora_categories as c')
      .leftJoin('image_loras as l', 'l.category_id', 'c.id')
      .groupBy('c.id')
      .orderBy([{ column: 'c.sort_order', order: 'asc' }, { column: 'c.name', order: 'asc' }])
      .select<Row[]>('c.*', this.db.raw('count(l.id) as lora_count'), this.db.raw('coalesce(max(l.is_adult), 0) as has_adult'));
    return rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      sortOrder: Number(r.sort_order),
      enabled: Boolean(r.enabled),
      createdAt: String(r.created_at),
      loraCount: Number(r.lora_count),
      hasAdult: Boolean(Number(r.has_adult)),
    }));
  }

  async category(id: string): Promise<CategoryRecord | null> {
    return (await this.categories()).find((c) => c.id === id) ?? null;
  }

  /** Another category of that name (names are unique, whatever their case). */
  async categoryNamed(name: string): Promise<{ id: string } | null> {
    const r = await this.db('image_lora_categories').whereRaw('name = ? COLLATE NOCASE', [name]).first<Row | undefined>('id');
    return r ? { id: String(r.id) } : null;
  }

  async insertCategory(c: { id: string; name: string; sortOrder: number; enabled: boolean; createdAt: string }): Promise<void> {
    await this.db('image_lora_categories').insert({ id: c.id, name: c.name, sort_order: c.sortOrder, enabled: c.enabled, created_at: c.createdAt });
  }

  async updateCategory(id: string, p: { name?: string; sortOrder?: number; enabled?: boolean }): Promise<void> {
    const row: Row = {};
    if (p.name !== undefined) row.name = p.name;
    if (p.sortOrder !== undefined) row.sort_order = p.sortOrder;
    if (p.enabled !== undefined) row.enabled = p.enabled;
    if (Object.keys(row).length) await this.db('image_lora_categories').where({ id }).update(row);
  }

  async deleteCategory(id: string): Promise<void> {
    await this.db('image_lora_categories').where({ id }).delete();
  }

  async nextCategoryOrder(): Promise<number> {
    const [r] = await this.db('image_lora_categories').max<{ m: number | null }[]>({ m: 'sort_order' });
    return r?.m === null || r?.m === undefined ? 0 : Number(r.m) + 1;
  }

  // ---- grants ------------------------------------------------------------------------------
  async loraGrants(userId: string): Promise<{ loraId: string; state: GrantState }[]> {
    const rows = await this.db('image_lora_grants').where({ user_id: userId }).orderBy('lora_id').select<Row[]>('lora_id', 'state');
    return rows.map((r) => ({ loraId: String(r.lora_id), state: r.state as GrantState }));
  }

  async categoryGrants(userId: string): Promise<{ categoryId: string; state: GrantState }[]> {
    const rows = await this.db('image_category_grants').where({ user_id: userId }).orderBy('category_id').select<Row[]>('category_id', 'state');
    return rows.map((r) => ({ categoryId: String(r.category_id), state: r.state as GrantState }));
  }

  async setLoraGrant(userId: string, loraId: string, state: GrantState | null, at: string): Promise<void> {
    if (state === null) await this.db('image_lora_grants').where({ user_id: userId, lora_id: loraId }).delete();
    else await this.db('image_lora_grants').insert({ user_id: userId, lora_id: loraId, state, updated_at: at }).onConflict(['user_id', 'lora_id']).merge();
  }

  async setCategoryGrant(userId: string, categoryId: string, state: GrantState | null, at: string): Promise<void> {
    if (state === null) await this.db('image_category_grants').where({ user_id: userId, category_id: categoryId }).delete();
    else await this.db('image_category_grants').insert({ user_id: userId, category_id: categoryId, state, updated_at: at }).onConflict(['user_id', 'category_id']).merge();
  }
}
