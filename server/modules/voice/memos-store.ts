// Every query of voice_memos; rows mapped to camelCase.
import type { Knex } from 'knex';
import type { Memo } from './schema.js';

export interface MemoRow extends Memo {
  ownerId: string;
}

interface Raw {
  id: string;
  user_id: string;
  title: string | null;
  status: Memo['status'];
  text: string | null;
  duration_seconds: number | null;
  mime: string;
  bytes: number;
  error: string | null;
  created_at: string;
}

const toRow = (r: Raw): MemoRow => ({
  id: r.id,
  ownerId: r.user_id,
  title: r.title,
  status: r.status,
  text: r.text,
  durationSeconds: r.duration_seconds,
  mime: r.mime,
  bytes: r.bytes,
  error: r.error,
  createdAt: r.created_at,
});

export class MemosStore {
  constructor(private readonly db: Knex) {}

  async insert(m: { id: string; ownerId: string; title: string | null; mime: string; bytes: number; now: string }): Promise<void> {
    await this.db('voice_memos').insert({ id: m.id, user_id: m.ownerId, title: m.title, status: 'transcribing', mime: m.mime, bytes: m.bytes, created_at: m.now, updated_at: m.now });
  }

  async get(id: string): Promise<MemoRow | null> {
    const r = (await this.db('voice_memos').where({ id }).first()) as Raw | undefined;
    return r ? toRow(r) : null;
  }

  async listOf(ownerId: string, limit: number): Promise<MemoRow[]> {
    const rows = (await this.db('voice_memos').where({ user_id: ownerId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'rowid', order: 'desc' }]).limit(limit)) as Raw[];
    return rows.map(toRow);
  }

  async transcribing(): Promise<MemoRow[]> {
    const rows = (await this.db('voice_memos').where({ status: 'transcribing' }).orderBy('created_at')) as Raw[];
    return rows.map(toRow);
  }

  async finish(id: string, result: { status: 'ready'; text: string; durationSeconds: number } | { status: 'failed'; error: string }, now: string): Promise<void> {
    const values = result.status === 'ready' ? { status: 'ready', text: result.text, duration_seconds: result.durationSeconds, error: null } : { status: 'failed', error: result.error };
    await this.db('voice_memos').where({ id, status: 'transcribing' }).update({ ...values, updated_at: now });
  }

  async setTitle(id: string, title: string | null, now: string): Promise<void> {
    await this.db('voice_memos').where({ id }).update({ title, updated_at: now });
  }

  /** Removes a member's memos (the users table's cascade usually has already). */
  async removeOwner(ownerId: string): Promise<void> {
    await this.db('voice_memos').where({ user_id: ownerId }).delete();
  }

  async delete(id: string): Promise<void> {
    await this.db('voice_memos').where({ id }).delete();
  }

  /** The owner's memos whose title or text holds every word. */
  async find(ownerId: string, words: string[], limit: number): Promise<MemoRow[]> {
    const q = this.db('voice_memos').where({ user_id: ownerId });
    for (const w of words) {
      const like = `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q.andWhere((b) => {
        void b.whereRaw("coalesce(text, '') like ? escape '\\'", [like]).orWhereRaw("coalesce(title, '') like ? escape '\\'", [like]);
      });
    }
    const rows = (await q.orderBy('created_at', 'desc').limit(limit)) as Raw[];
    return rows.map(toRow);
  }
}
