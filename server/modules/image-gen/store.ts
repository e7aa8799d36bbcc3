// Image generation's tables: generated_images, image_reference_faces, image_loras,
// image_lora_categories, image_lora_grants, image_category_grants, image_member_protections.
// Rows are mapped to camelCase records; a miss is null. No rules here: the services decide who may
// see or change what (a member's pictures are theirs alone; grants and protections are an admin's).
import type { Knex } from 'knex';
import type { ArtifactKind, ArtifactState, GrantState, Pipeline, Protections } from './schema.js';

export interface ArtifactRecord {
  id: string;
  userId: string;
  kind: ArtifactKind;
  pipeline: Pipeline;
  state: ArtifactState;
  stepCurrent: number;
  stepTotal: number;
  isAdult: boolean;
  prompt: string;
  finalPrompt: string | null;
  negativePrompt: string | null;
  style: string | null;
  params: Record<string, unknown>;
  loras: { id: string; name: string; weight: number }[];
  sourceId: string | null;
  error: string | null;
  /** Relative to DATA_DIR/images. */
  outputPath: string | null;
  contentType: string | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}
export type ArtifactPatch = Partial<Omit<ArtifactRecord, 'id' | 'userId' | 'createdAt'>>;

export interface ReferenceFaceRecord {
  id: string;
  userId: string;
  filePath: string;
  createdAt: string;
}

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

type Row = Record<string, unknown>;
const json = <T>(v: unknown, fallback: T): T => {
  if (typeof v !== 'string') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
};
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function toArtifact(r: Row): ArtifactRecord {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    kind: r.kind as ArtifactKind,
    pipeline: r.pipeline as Pipeline,
    state: r.state as ArtifactState,
    stepCurrent: Number(r.step_current),
    stepTotal: Number(r.step_total),
    isAdult: Boolean(r.is_adult),
    prompt: String(r.prompt ?? ''),
    finalPrompt: str(r.final_prompt),
    negativePrompt: str(r.negative_prompt),
    style: str(r.style),
    params: json(r.params, {}),
    loras: json(r.loras, []),
    sourceId: str(r.source_id),
    error: str(r.error),
    outputPath: str(r.output_path),
    contentType: str(r.content_type),
    width: num(r.width),
    height: num(r.height),
    bytes: num(r.bytes),
    createdAt: String(r.created_at),
    startedAt: str(r.started_at),
    finishedAt: str(r.finished_at),
  };
}

const ARTIFACT_COLUMNS: Record<keyof ArtifactPatch, string> = {
  kind: 'kind',
  pipeline: 'pipeline',
  state: 'state',
  stepCurrent: 'step_current',
  stepTotal: 'step_total',
  isAdult: 'is_adult',
  prompt: 'prompt',
  finalPrompt: 'final_prompt',
  negativePrompt: 'negative_prompt',
  style: 'style',
  params: 'params',
  loras: 'loras',
  sourceId: 'source_id',
  error: 'error',
  outputPath: 'output_path',
  contentType: 'content_type',
  width: 'width',
  height: 'height',
  bytes: 'bytes',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
};

function artifactRow(p: ArtifactPatch): Row {
  const row: Row = {};
  for (const [k, v] of Object.entries(p)) {
    if (v === undefined) continue;
    const col = ARTIFACT_COLUMNS[k as keyof ArtifactPatch] as string | undefined;
    if (!col) continue;
    row[col] = k === 'params' || k === 'loras' ? JSON.stringify(v) : v;
  }
  return row;
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

export interface HistoryFilter {
  kind?: ArtifactKind;
  states: readonly ArtifactState[];
  limit: number;
  offset: number;
}

export class ImageGenStore {
  constructor(private readonly db: Knex) {}

  // ---- artifacts ---------------------------------------------------------------------------
  async insertArtifact(a: ArtifactRecord): Promise<void> {
    await this.db('generated_images').insert({ id: a.id, user_id: a.userId, created_at: a.createdAt, ...artifactRow(a) });
  }

  async artifact(id: string): Promise<ArtifactRecord | null> {
    const row = await this.db('generated_images').where({ id }).first<Row | undefined>();
    return row ? toArtifact(row) : null;
  }

  async updateArtifact(id: string, patch: ArtifactPatch): Promise<void> {
    const row = artifactRow(patch);
    if (Object.keys(row).length) await this.db('generated_images').where({ id }).update(row);
  }

  /** Moves a row on only from one of `from` (a cancel never overwrites a finished picture). */
  async updateArtifactIf(id: string, from: readonly ArtifactState[], patch: ArtifactPatch): Promise<boolean> {
    return (await this.db('generated_images').where({ id }).whereIn('state', from).update(artifactRow(patch))) > 0;
  }

  async deleteArtifact(id: string): Promise<void> {
    await this.db('generated_images').where({ id }).delete();
  }

  async history(userId: string, f: HistoryFilter): Promise<{ items: ArtifactRecord[]; total: number }> {
    const base = () => {
      const q = this.db('generated_images').where({ user_id: userId }).whereIn('state', f.states);
      if (f.kind) q.andWhere({ kind: f.kind });
      return q;
    };
    const [rows, count] = await Promise.all([
      base().orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit).offset(f.offset).select<Row[]>('*'),
      base().count<{ n: number }[]>({ n: '*' }),
    ]);
    return { items: rows.map(toArtifact), total: Number(count[0]?.n ?? 0) };
  }

  /** The member's newest job still queued or building. */
  async latestActive(userId: string): Promise<ArtifactRecord | null> {
    const row = await this.db('generated_images').where({ user_id: userId }).whereIn('state', ['queued', 'building']).orderBy('created_at', 'desc').first<Row | undefined>();
    return row ? toArtifact(row) : null;
  }

  async countActive(userId?: string): Promise<number> {
    const q = this.db('generated_images').whereIn('state', ['queued', 'building']);
    if (userId) q.andWhere({ user_id: userId });
    const [row] = await q.count<{ n: number }[]>({ n: '*' });
    return Number(row?.n ?? 0);
  }

  /** Rows left queued or building by a Hearth that stopped; they cannot finish any more. */
  async failUnfinished(error: string, at: string): Promise<number> {
    return this.db('generated_images').whereIn('state', ['queued', 'building']).update({ state: 'failed', error, finished_at: at });
  }

  // ---- reference faces ---------------------------------------------------------------------
  async insertFace(f: ReferenceFaceRecord): Promise<void> {
    await this.db('image_reference_faces').insert({ id: f.id, user_id: f.userId, file_path: f.filePath, created_at: f.createdAt });
  }

  async face(id: string): Promise<ReferenceFaceRecord | null> {
    const r = await this.db('image_reference_faces').where({ id }).first<Row | undefined>();
    return r ? { id: String(r.id), userId: String(r.user_id), filePath: String(r.file_path), createdAt: String(r.created_at) } : null;
  }

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

  // ---- protections -------------------------------------------------------------------------
  /** The member's protections; null when an admin never changed them (the defaults apply). */
  async protections(userId: string): Promise<Protections | null> {
    const r = await this.db('image_member_protections').where({ user_id: userId }).first<Row | undefined>();
    return r ? { uncensoredImages: Boolean(r.uncensored_images), blockAdultLoras: Boolean(r.block_adult_loras) } : null;
  }

  async setProtections(userId: string, p: Protections, at: string): Promise<void> {
    await this.db('image_member_protections')
      .insert({ user_id: userId, uncensored_images: p.uncensoredImages, block_adult_loras: p.blockAdultLoras, updated_at: at })
      .onConflict('user_id')
      .merge();
  }
}
