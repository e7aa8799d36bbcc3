// users, sessions, and what PIN sign-in remembers (trusted devices, strikes, paces). Dumb queries: no authorization, no HTTP errors; rows mapped to camelCase.
import type { Knex } from 'knex';
import type { Role } from './schema.js';

export interface UserRecord {
  id: string;
  name: string;
  role: Role;
  avatar: string | null;
  pinHash: string;
  createdAt: string;
  updatedAt: string;
}

interface UserRow {
  id: string;
  name: string;
  role: Role;
  avatar: string | null;
  pin_hash: string;
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

  async insertUser(u: UserRecord): Promise<void> {
    await this.db('users').insert({
      id: u.id,
      name: u.name,
      role: u.role,
      avatar: u.avatar,
      pin_hash: u.pinHash,
      created_at: u.createdAt,
      updated_at: u.updatedAt,
    });
  }

  async updateUser(id: string, patch: Partial<Pick<UserRecord, 'name' | 'role' | 'avatar' | 'pinHash' | 'updatedAt'>>): Promise<boolean> {
    const row: Record<string, unknown> = {};
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.role !== undefined) row.role = patch.role;
    if (patch.avatar !== undefined) row.avatar = patch.avatar;
    if (patch.pinHash !== undefined) row.pin_hash = patch.pinHash;
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

/** A browser a member signed in on with the right PIN (the cookie token's hash, never the token). */
export interface TrustedDeviceRecord {
  deviceHash: string;
  userId: string;
  lastUsedAt: string;
}

/** Wrong PINs and locks under one key (`p|<user>|<client>` or `d|<client>`); times as epoch ms. */
export interface StrikeRecord {
  key: string;
  userId: string | null;
  failures: number;
  locks: number;
  lockedUntil: number;
  lastFailureAt: number;
}

/** Wrong PINs of a profile (key: its id) or of the household (`*`) in the last day. */
export interface PaceRecord {
  key: string;
  failures: number;
  lastFailureAt: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const ms = (s: string | null) => (s ? Date.parse(s) : 0);

/** What PIN sign-in keeps across restarts: trusted_devices, pin_strikes, pin_paces. */
export class PinStateStore {
  constructor(private readonly db: Knex) {}

  /** The trusted devices last used after `sinceIso`, oldest first (at most `limit`, the newest kept). */
  async trustedDevices(sinceIso: string, limit: number): Promise<TrustedDeviceRecord[]> {
    const rows = await this.db('trusted_devices')
      .where('last_used_at', '>', sinceIso)
      .orderBy('last_used_at', 'desc')
      .limit(limit)
      .select<{ device_hash: string; user_id: string; last_used_at: string }[]>('device_hash', 'user_id', 'last_used_at');
    return rows.reverse().map((r) => ({ deviceHash: r.device_hash, userId: r.user_id, lastUsedAt: r.last_used_at }));
  }

  async deleteTrustedDevicesUsedBefore(beforeIso: string): Promise<void> {
    await this.db('trusted_devices').where('last_used_at', '<=', beforeIso).delete();
  }

  async putTrustedDevice(deviceHash: string, userId: string, nowIso: string): Promise<void> {
    await this.db('trusted_devices')
      .insert({ device_hash: deviceHash, user_id: userId, created_at: nowIso, last_used_at: nowIso })
      .onConflict(['device_hash', 'user_id'])
      .merge({ last_used_at: nowIso });
  }

  async deleteTrustedDevice(deviceHash: string): Promise<void> {
    await this.db('trusted_devices').where({ device_hash: deviceHash }).delete();
  }

  async strikes(): Promise<StrikeRecord[]> {
    const rows = await this.db('pin_strikes')
      .orderBy('last_failure_at')
      .select<{ key: string; user_id: string | null; failures: number; locks: number; locked_until: string | null; last_failure_at: string }[]>('*');
    return rows.map((r) => ({ key: r.key, userId: r.user_id, failures: r.failures, locks: r.locks, lockedUntil: ms(r.locked_until), lastFailureAt: ms(r.last_failure_at) }));
  }

  async putStrike(s: StrikeRecord): Promise<void> {
    const row = { failures: s.failures, locks: s.locks, locked_until: s.lockedUntil > 0 ? iso(s.lockedUntil) : null, last_failure_at: iso(s.lastFailureAt) };
    await this.db('pin_strikes').insert({ key: s.key, user_id: s.userId, ...row }).onConflict('key').merge(row);
  }

  async deleteStrikes(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 500) await this.db('pin_strikes').whereIn('key', keys.slice(i, i + 500)).delete();
  }

  async paces(): Promise<PaceRecord[]> {
    const rows = await this.db('pin_paces').select<{ key: string; failures: number; last_failure_at: string }[]>('*');
    return rows.map((r) => ({ key: r.key, failures: r.failures, lastFailureAt: ms(r.last_failure_at) }));
  }

  async putPace(p: PaceRecord): Promise<void> {
    const row = { failures: p.failures, last_failure_at: iso(p.lastFailureAt) };
    await this.db('pin_paces').insert({ key: p.key, ...row }).onConflict('key').merge(row);
  }

  async deletePaces(keys: string[]): Promise<void> {
    await this.db('pin_paces').whereIn('key', keys).delete();
  }
}
