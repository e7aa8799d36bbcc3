// Every query of converter_files (each member's converted files, kept 24 hours); rows mapped to camelCase.
import type { Knex } from 'knex';

export interface ConvertedFileRow {
  id: string;
  ownerId: string;
  name: string;
  mime: string;
  bytes: number;
  createdAt: string;
  expiresAt: string;
}

interface Raw {
  id: string;
  user_id: string;
  name: string;
  mime: string;
  bytes: number;
  created_at: string;
  expires_at: string;
}

const toRow = (r: Raw): ConvertedFileRow => ({ id: r.id, ownerId: r.user_id, name: r.name, mime: r.mime, bytes: r.bytes, createdAt: r.created_at, expiresAt: r.expires_at });

export class ConverterStore {
  constructor(private readonly db: Knex) {}

  async insert(f: ConvertedFileRow): Promise<void> {
    await this.db('converter_files').insert({ id: f.id, user_id: f.ownerId, name: f.name, mime: f.mime, bytes: f.bytes, created_at: f.createdAt, expires_at: f.expiresAt });
  }

  async get(id: string): Promise<ConvertedFileRow | null> {
    const r = (await this.db('converter_files').where({ id }).first()) as Raw | undefined;
    return r ? toRow(r) : null;
  }

  async expired(now: string): Promise<ConvertedFileRow[]> {
    return ((await this.db('converter_files').where('expires_at', '<=', now)) as Raw[]).map(toRow);
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.db('converter_files').whereIn('id', ids).delete();
  }

  async kept(now: string): Promise<ConvertedFileRow[]> {
    return ((await this.db('converter_files').where('expires_at', '>', now)) as Raw[]).map(toRow);
  }

  async allIds(): Promise<Set<string>> {
    return new Set(((await this.db('converter_files').select('id')) as Array<{ id: string }>).map((r) => r.id));
  }
}
