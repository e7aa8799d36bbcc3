// Every query of music_pieces; rows mapped to camelCase.
import type { Knex } from 'knex';

export interface PieceRow {
  id: string;
  ownerId: string;
  prompt: string;
  seconds: number;
  seed: number;
  isAdult: boolean;
  /** Relative to DATA_DIR/music: `<userId>/<id>.flac` (or `.wav`). */
  filePath: string;
  contentType: string;
  bytes: number;
  createdAt: string;
}

interface Raw {
  id: string;
  user_id: string;
  prompt: string;
  seconds: number;
  seed: number;
  is_adult: number | boolean;
  file_path: string;
  content_type: string;
  bytes: number;
  created_at: string;
}

const toRow = (r: Raw): PieceRow => ({
  id: r.id,
  ownerId: r.user_id,
  prompt: r.prompt,
  seconds: r.seconds,
  seed: r.seed,
  isAdult: Boolean(r.is_adult),
  filePath: r.file_path,
  contentType: r.content_type,
  bytes: r.bytes,
  createdAt: r.created_at,
});

export class MusicStore {
  constructor(private readonly db: Knex) {}

  async insert(p: PieceRow): Promise<void> {
    await this.db('music_pieces').insert({
      id: p.id,
      user_id: p.ownerId,
      prompt: p.prompt,
      seconds: p.seconds,
      seed: p.seed,
      is_adult: p.isAdult,
      file_path: p.filePath,
      content_type: p.contentType,
      bytes: p.bytes,
      created_at: p.createdAt,
    });
  }

  async get(id: string): Promise<PieceRow | null> {
    const r = (await this.db('music_pieces').where({ id }).first()) as Raw | undefined;
    return r ? toRow(r) : null;
  }

  /** The owner's pieces, newest first; adult ones only when asked. */
  async history(ownerId: string, includeAdult: boolean, limit: number): Promise<{ rows: PieceRow[]; adultLeftOut: number }> {
    const q = this.db('music_pieces').where({ user_id: ownerId });
    if (!includeAdult) void q.where({ is_adult: false });
    const rows = (await q
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'rowid', order: 'desc' }])
      .limit(limit)) as Raw[];
    const adult = includeAdult ? 0 : Number(((await this.db('music_pieces').where({ user_id: ownerId, is_adult: true }).count({ n: '*' }).first()) as { n: number } | undefined)?.n ?? 0);
    return { rows: rows.map(toRow), adultLeftOut: adult };
  }

  async delete(id: string): Promise<void> {
    await this.db('music_pieces').where({ id }).delete();
  }
}
