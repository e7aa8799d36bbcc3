// skills: the household's (owner_id null) and each member's own.
import type { Knex } from 'knex';

export interface SkillRow {
  id: string;
  ownerId: string | null;
  name: string;
  description: string;
  instructions: string;
  tools: string[];
  starterPrompts: string[];
  createdAt: string;
  updatedAt: string;
}

interface Raw {
  id: string;
  owner_id: string | null;
  name: string;
  description: string;
  instructions: string;
  tools: string;
  starter_prompts: string;
  created_at: string;
  updated_at: string;
}

const list = (s: string): string[] => {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

const toRow = (r: Raw): SkillRow => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  description: r.description,
  instructions: r.instructions,
  tools: list(r.tools),
  starterPrompts: list(r.starter_prompts),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toRaw = (s: SkillRow): Raw => ({
  id: s.id,
  owner_id: s.ownerId,
  name: s.name,
  description: s.description,
  instructions: s.instructions,
  tools: JSON.stringify(s.tools),
  starter_prompts: JSON.stringify(s.starterPrompts),
  created_at: s.createdAt,
  updated_at: s.updatedAt,
});

export class SkillsStore {
  constructor(private readonly db: Knex) {}

  /** The household's skills and the member's own, by name. */
  async visible(userId: string): Promise<SkillRow[]> {
    const rows = (await this.db('skills')
      .where((w) => {
        void w.whereNull('owner_id').orWhere('owner_id', userId);
      })
      .orderBy([{ column: 'name' }, { column: 'id' }])) as Raw[];
    return rows.map(toRow);
  }

  async get(id: string): Promise<SkillRow | null> {
    const r = (await this.db('skills').where({ id }).first()) as Raw | undefined;
    return r ? toRow(r) : null;
  }

  async count(ownerId: string | null): Promise<number> {
    const q = this.db('skills');
    const r = (await (ownerId === null ? q.whereNull('owner_id') : q.where({ owner_id: ownerId })).count({ n: '*' }).first()) as { n: number };
    return Number(r.n);
  }

  async insert(s: SkillRow): Promise<void> {
    await this.db('skills').insert(toRaw(s));
  }

  async update(s: SkillRow): Promise<void> {
    const { id, ...rest } = toRaw(s);
    await this.db('skills').where({ id }).update(rest);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db('skills').where({ id }).delete()) > 0;
  }
}
