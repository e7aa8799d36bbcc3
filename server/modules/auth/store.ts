// users and sessions. Dumb queries: no authorization, no HTTP errors; rows mapped to camelCase.
import type { Knex } from 'knex';
import type { Role } from './schema.js';

export interface UserRecord {
  id: string;
  name: string;
  role: Role;
  avatar: string | null;
  pinHash: string;
  failedPinCount: number;
  lockedUntil: string | null;
  createdAt: string;
  updatedAt: string;
}

interface UserRow {
  id: string;
  name: string;
  role: Role;
  avatar: string | null;
  pin_hash: string;
  failed_pin_count: number;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionRecord {
  id: string;
  userId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  name: r.name,
  role: r.role,
  avatar: r.avatar,
  pinHash: r.pin_hash,
  failedPinCount: r.failed_pin_count,
  lockedUntil: r.locked_until,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class AuthStore {
  constructor(private readonly db: Knex) {}

  transaction<T>(fn: (store: AuthStore) => Promise<T>): Promise<T> {
    return this.db.transaction((trx) => fn(new AuthStore(trx)));
  }

  async listUsers(): Promise<UserRecord[]> {
    const rows = await this.db<UserRow>('users').select('*').orderBy([{ column: 'role', order: 'asc' }, { column: 'created_at' }]);
    return rows.map(toUser);
  }

  async findUser(id: string): Promise<UserRecord | null> {
    const row = await this.db<UserRow>('users').where({ id }).first();
    return row ? toUser(row) : null;
  }

  async countAdmins(): Promise<number> {
    const row = await this.db('users').where({ role: 'admin' }).count<{ n: number }[]>({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  async insertUser(u: Omit<UserRecord, 'failedPinCount' | 'lockedUntil'>): Promise<void> {
    await this.db('users').insert({
      id: u.id,
      name: u.name,
      role: u.role,
      avatar: u.avatar,
      pin_hash: u.pinHash,
      failed_pin_count: 0,
      locked_until: null,
      created_at: u.createdAt,
      updated_at: u.updatedAt,
    });
  }

  async updateUser(id: string, patch: Partial<Pick<UserRecord, 'name' | 'role' | 'avatar' | 'pinHash' | 'failedPinCount' | 'lockedUntil' | 'updatedAt'>>): Promise<boolean> {
    const row: Record<string, unknown> = {};
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.role !== undefined) row.role = patch.role;
    if (patch.avatar !== undefined) row.avatar = patch.avatar;
    if (patch.pinHash !== undefined) row.pin_hash = patch.pinHash;
    if (patch.failedPinCount !== undefined) row.failed_pin_count = patch.failedPinCount;
    if (patch.lockedUntil !== undefined) row.locked_until = patch.lockedUntil;
    if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
    return (await this.db('users').where({ id }).update(row)) > 0;
  }

  async deleteUser(id: string): Promise<boolean> {
    return (await this.db('users').where({ id }).delete()) > 0;
  }

  async insertSession(s: SessionRecord & { tokenHash: string; userAgent: string | null }): Promise<void> {
    await this.db('sessions').insert({
      id: s.id,
      token_hash: s.tokenHash,
      user_id: s.userId,
      created_at: s.createdAt,
      last_seen_at: s.lastSeenAt,
      expires_at: s.expiresAt,
      user_agent: s.userAgent,
    });
  }

  /** The session and its user in one indexed lookup. */
  async findSessionByTokenHash(tokenHash: string): Promise<{ session: SessionRecord; user: UserRecord } | null> {
    const row = await this.db('sessions as s')
      .join('users as u', 'u.id', 's.user_id')
      .where('s.token_hash', tokenHash)
      .first<(UserRow & { s_id: string; s_created_at: string; s_last_seen_at: string; s_expires_at: string }) | undefined>(
        'u.*',
        's.id as s_id',
        's.created_at as s_created_at',
        's.last_seen_at as s_last_seen_at',
        's.expires_at as s_expires_at',
      );
    if (!row) return null;
    return {
      session: { id: row.s_id, userId: row.id, createdAt: row.s_created_at, lastSeenAt: row.s_last_seen_at, expiresAt: row.s_expires_at },
      user: toUser(row),
    };
  }

  async touchSession(id: string, lastSeenAt: string, expiresAt: string): Promise<void> {
    await this.db('sessions').where({ id }).update({ last_seen_at: lastSeenAt, expires_at: expiresAt });
  }

  async deleteSession(id: string): Promise<void> {
    await this.db('sessions').where({ id }).delete();
  }

  async deleteSessionsOfUser(userId: string, exceptId?: string): Promise<void> {
    const q = this.db('sessions').where({ user_id: userId });
    if (exceptId) q.whereNot({ id: exceptId });
    await q.delete();
  }

  async deleteExpiredSessions(nowIso: string): Promise<number> {
    return this.db('sessions').where('expires_at', '<=', nowIso).delete();
  }
}
