// Every query of companions, companion_grants and companion_favorites. Rows mapped to camelCase.
import type { Knex } from 'knex';
import type { Level } from '../content/schema.js';
import type { Companion } from './schema.js';

interface Row {
  id: string;
  name: string;
  description: string;
  avatar: string;
  system_prompt: string;
  model: string | null;
  level: Level;
  greeting: string;
  builtin: number | boolean;
}
export type CompanionRecord = Companion & { builtin: boolean };

const toRecord = (r: Row): CompanionRecord => ({
  id: r.id,
  name: r.name,
  description: r.description,
  avatar: r.avatar,
  systemPrompt: r.system_prompt,
  model: r.model,
  level: r.level,
  greeting: r.greeting,
  builtin: Boolean(r.builtin),
});
const toRow = (c: Partial<Companion>) => ({
  ...(c.name !== undefined && { name: c.name }),
  ...(c.description !== undefined && { description: c.description }),
  ...(c.avatar !== undefined && { avatar: c.avatar }),
  ...(c.systemPrompt !== undefined && { system_prompt: c.systemPrompt }),
  ...(c.model !== undefined && { model: c.model }),
  ...(c.level !== undefined && { level: c.level }),
  ...(c.greeting !== undefined && { greeting: c.greeting }),
});

export class CompanionsStore {
  constructor(private readonly db: Knex) {}

  async list(): Promise<CompanionRecord[]> {
    return ((await this.db('companions').orderBy('name')) as Row[]).map(toRecord);
  }

  async find(id: string): Promise<CompanionRecord | null> {
    const r = (await this.db('companions').where({ id }).first()) as Row | undefined;
    return r ? toRecord(r) : null;
  }

  async insert(c: Companion, at: string): Promise<void> {
    await this.db('companions').insert({ id: c.id, ...toRow(c), builtin: false, created_at: at, updated_at: at });
  }

  async update(id: string, patch: Partial<Companion>, at: string): Promise<void> {
    await this.db('companions').where({ id }).update({ ...toRow(patch), updated_at: at });
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db('companions').where({ id }).delete()) > 0;
  }

  async grants(): Promise<Array<{ companionId: string; userId: string; granted: boolean }>> {
    return ((await this.db('companion_grants').select('*')) as Array<{ companion_id: string; user_id: string; granted: number | boolean }>).map((g) => ({ companionId: g.companion_id, userId: g.user_id, granted: Boolean(g.granted) }));
  }

  async setGrant(companionId: string, userId: string, granted: boolean, at: string): Promise<void> {
    await this.db('companion_grants').insert({ companion_id: companionId, user_id: userId, granted, updated_at: at }).onConflict(['companion_id', 'user_id']).merge(['granted', 'updated_at']);
  }

  async favorites(userId: string): Promise<Set<string>> {
    return new Set(((await this.db('companion_favorites').where({ user_id: userId }).select('companion_id')) as Array<{ companion_id: string }>).map((f) => f.companion_id));
  }

  async setFavorite(companionId: string, userId: string, favorite: boolean, at: string): Promise<void> {
    if (favorite) await this.db('companion_favorites').insert({ companion_id: companionId, user_id: userId, created_at: at }).onConflict(['companion_id', 'user_id']).ignore();
    else await this.db('companion_favorites').where({ companion_id: companionId, user_id: userId }).delete();
  }
}
