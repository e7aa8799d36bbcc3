// Every query of chat_memories. Rows are mapped to camelCase; a miss is null. No rules here.
import type { Knex } from 'knex';
import type { Memory } from './schema.js';

interface Row {
  id: string;
  user_id: string;
  text: string;
  created_at: string;
}

const toMemory = (r: Row): Memory => ({ id: r.id, text: r.text, createdAt: r.created_at });

export class MemoryStore {
  constructor(private readonly db: Knex) {}

  /** The member's memories, oldest first. */
  async list(userId: string): Promise<Memory[]> {
    return ((await this.db('chat_memories').where({ user_id: userId }).orderBy([{ column: 'created_at' }, { column: 'id' }])) as Row[]).map(toMemory);
  }

  async count(userId: string): Promise<number> {
    const [row] = await this.db('chat_memories').where({ user_id: userId }).count<{ n: number }[]>({ n: '*' });
    return Number(row?.n ?? 0);
  }

  async insert(userId: string, m: Memory): Promise<void> {
    await this.db('chat_memories').insert({ id: m.id, user_id: userId, text: m.text, created_at: m.createdAt });
  }

  /** Deletes the member's own memory only; false when they have none with that id. */
  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.db('chat_memories').where({ user_id: userId, id }).delete()) > 0;
  }
}
