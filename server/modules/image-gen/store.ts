// Image generation's pictures: generated_images and image_reference_faces (the LoRA library and
// the members' grants and protections are in loras-store.ts). Rows are mapped to camelCase records; a miss is null. No rules here: the services decide who may
// see or change what (a member's pictures are theirs alone; grants and protections are an admin's).
import type { Knex } from 'knex';
import { json, num, str, type Row } from './row-values.js';
import type { ArtifactKind, ArtifactState, Pipeline } from './schema.js';

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

export interface HistoryFilter {
  kind?: ArtifactKind;
  states: readonly ArtifactState[];
  limit: number;
  offset: number;
  /** false: adult pictures are left out (the session is not in the adult state). */
  includeAdult?: boolean;
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

  /** The page, how many the filter holds, and (with includeAdult false) how many adult ones it left out. */
  async history(userId: string, f: HistoryFilter): Promise<{ items: ArtifactRecord[]; total: number; adultLeftOut: number }> {
    const base = (adult?: boolean) => {
      const q = this.db('generated_images').where({ user_id: userId }).whereIn('state', f.states);
      if (f.kind) q.andWhere({ kind: f.kind });
      if (adult !== undefined) q.andWhere({ is_adult: adult });
      return q;
    };
    const shown = f.includeAdult === false ? false : undefined;
    const [rows, count, adult] = await Promise.all([
      base(shown).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(f.limit).offset(f.offset).select<Row[]>('*'),
      base(shown).count<{ n: number }[]>({ n: '*' }),
      f.includeAdult === false ? base(true).count<{ n: number }[]>({ n: '*' }) : Promise.resolve([{ n: 0 }]),
    ]);
    return { items: rows.map(toArtifact), total: Number(count[0]?.n ?? 0), adultLeftOut: Number(adult[0]?.n ?? 0) };
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
}
