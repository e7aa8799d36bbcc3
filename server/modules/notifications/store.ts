// notifications (and notification_unread_counts, which its triggers keep). Visibility (own rows;
// admins also the rows with user_id null) is expressed as a where-clause so that every read and
// write is scoped by it in the same single query.
import type { Knex } from 'knex';
import { tableWrites } from '../../db/connection.js';
import type { Notification, NotificationType } from './schema.js';

export interface Audience {
  userId: string;
  isAdmin: boolean;
}

interface Row {
  id: string;
  user_id: string | null;
  type: NotificationType;
  payload: string;
  read_at: string | null;
  created_at: string;
}

function parsePayload(s: string): Record<string, unknown> {
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const toNotification = (r: Row): Notification => ({
  id: r.id,
  userId: r.user_id,
  type: r.type,
  payload: parsePayload(r.payload),
  readAt: r.read_at,
  createdAt: r.created_at,
});

function visibleTo(q: Knex.QueryBuilder, a: Audience): Knex.QueryBuilder {
  return q.where((w) => {
    w.where('user_id', a.userId);
    if (a.isAdmin) w.orWhereNull('user_id');
  });
}

export class NotificationsStore {
  /** Moves on any write to notifications (or users, whose delete cascades into them). */
  private readonly changes: () => number;
  /** The last count per audience and the write version it was read at. */
  private readonly counted = new Map<string, { n: number; version: number }>();

  constructor(private readonly db: Knex) {
    this.changes = tableWrites(db, ['notifications', 'users']);
  }

  async insert(n: { id: string; userId: string | null; type: NotificationType; payload: Record<string, unknown>; createdAt: string }): Promise<void> {
    await this.db('notifications').insert({ id: n.id, user_id: n.userId, type: n.type, payload: JSON.stringify(n.payload), read_at: null, created_at: n.createdAt });
  }

  async listVisible(a: Audience, limit: number): Promise<Notification[]> {
    const rows = (await visibleTo(this.db('notifications').select('*'), a)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'rowid', order: 'desc' },
      ])
      .limit(limit)) as Row[];
    return rows.map(toNotification);
  }

  /**
   * One statement reading the per-audience counters that triggers keep (see the
   * notification_unread_counts migration): one primary-key lookup for a member, two for an admin
   * (their own rows and the admin-targeted ones), however many notifications there are.
   */
  private unreadQuery(a: Audience): Knex.Raw {
    const part = (key: string) => `coalesce((SELECT n FROM notification_unread_counts WHERE audience = ${key}), 0)`;
    return this.db.raw(`SELECT ${part('?')}${a.isAdmin ? ` + ${part("''")}` : ''} AS n`, [a.userId]);
  }

  /**
   * Every open device polls this: while nothing has written the notifications since the last
   * count for this audience, that count is still exact and is answered without a query.
   */
  async countUnread(a: Audience): Promise<number> {
    const key = `${a.isAdmin ? 'admin' : 'member'}:${a.userId}`;
    const version = this.changes();
    const known = this.counted.get(key);
    if (known && known.version === version) return known.n;
    const rows = (await this.unreadQuery(a)) as Array<{ n: number }>;
    const n = Number(rows[0]?.n ?? 0);
    if (this.counted.size >= 10_000) this.counted.clear();
    this.counted.set(key, { n, version });
    return n;
  }

  /** The SQL of countUnread, for checking its query plan. */
  countUnreadSql(a: Audience): { sql: string; bindings: readonly unknown[] } {
    const q = this.unreadQuery(a).toSQL().toNative();
    return { sql: q.sql, bindings: q.bindings };
  }

  async markRead(a: Audience, id: string, at: string): Promise<Notification | null> {
    const found = (await visibleTo(this.db('notifications').select('*').where({ id }), a).first()) as Row | undefined;
    if (!found) return null;
    if (!found.read_at) await this.db('notifications').where({ id }).update({ read_at: at });
    return toNotification({ ...found, read_at: found.read_at ?? at });
  }

  async markAllRead(a: Audience, at: string): Promise<number> {
    return visibleTo(this.db('notifications'), a).whereNull('read_at').update({ read_at: at });
  }

  /** The notification raised for a condition, if one is open. */
  async findCondition(key: string): Promise<{ id: string; payload: Record<string, unknown>; userId: string | null } | null> {
    const row = (await this.db('notifications').where({ condition_key: key }).first('id', 'payload', 'user_id')) as Pick<Row, 'id' | 'payload' | 'user_id'> | undefined;
    return row ? { id: row.id, payload: parsePayload(row.payload), userId: row.user_id } : null;
  }

  async insertCondition(key: string, n: { id: string; userId: string | null; type: NotificationType; payload: Record<string, unknown>; createdAt: string }): Promise<void> {
    await this.db('notifications').insert({ id: n.id, user_id: n.userId, type: n.type, payload: JSON.stringify(n.payload), read_at: null, created_at: n.createdAt, condition_key: key });
  }

  /** A changed description of an open condition: its words change, whether it was read does not. */
  async updateConditionPayload(key: string, payload: Record<string, unknown>, unread: boolean): Promise<void> {
    await this.db('notifications')
      .where({ condition_key: key })
      .update({ payload: JSON.stringify(payload), ...(unread ? { read_at: null } : {}) });
  }

  /** Removes the notifications of the conditions that ended; returns how many went. */
  async removeConditions(keys: string[]): Promise<number> {
    if (!keys.length) return 0;
    return this.db('notifications').whereIn('condition_key', keys).delete();
  }

  /** The keys of every open condition notification. */
  async openConditionKeys(): Promise<string[]> {
    const rows = (await this.db('notifications').whereNotNull('condition_key').distinct('condition_key')) as Array<{ condition_key: string }>;
    return rows.map((r) => r.condition_key);
  }

  async findUnreadInstallRequest(requestedBy: string, toolId: string): Promise<string | null> {
    const row = (await this.db('notifications')
      .whereNull('user_id')
      .whereNull('read_at')
      .where({ type: 'install_request' })
      .whereRaw("json_extract(payload, '$.requestedBy') = ? AND json_extract(payload, '$.toolId') = ?", [requestedBy, toolId])
      .first('id')) as { id: string } | undefined;
    return row?.id ?? null;
  }
}
