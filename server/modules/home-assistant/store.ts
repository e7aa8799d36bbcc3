// The home-assistant module's rows: the one connection (its token never leaves the service), the
// exposed entities, each member's rights, each member's favourites and the activity log.
import type { Knex } from 'knex';
import type { ActivityEntry, ActivityOutcome, Allowed, GuardedRule } from './schema.js';

const HOUSEHOLD = 'household';

export interface ConnectionRow {
  url: string;
  token: string;
  version: string | null;
}

export interface RightsRow {
  userId: string;
  allowed: Allowed;
  guarded: GuardedRule;
}

interface ActivityDb {
  id: number;
  user_id: string | null;
  user_name: string;
  entity_id: string;
  service: string;
  source: 'app' | 'chat';
  outcome: ActivityOutcome;
  created_at: string;
}

export class HomeAssistantStore {
  constructor(private readonly db: Knex) {}

  async connection(): Promise<ConnectionRow | null> {
    const r = await this.db('home_assistant_connection').where({ id: HOUSEHOLD }).first<{ url: string; token: string; version: string | null } | undefined>('url', 'token', 'version');
    return r ? { url: r.url, token: r.token, version: r.version } : null;
  }

  async saveConnection(row: ConnectionRow, by: string | null, at: string): Promise<void> {
    await this.db('home_assistant_connection')
      .insert({ id: HOUSEHOLD, url: row.url, token: row.token, version: row.version, updated_at: at, updated_by: by })
      .onConflict('id')
      .merge();
  }

  async deleteConnection(): Promise<void> {
    await this.db('home_assistant_connection').where({ id: HOUSEHOLD }).delete();
  }

  /** entity id -> whether the admin guarded it beyond its domain. */
  async exposed(): Promise<Map<string, boolean>> {
    const rows = await this.db('home_assistant_exposed').select<Array<{ entity_id: string; guarded: number | boolean }>>('entity_id', 'guarded');
    return new Map(rows.map((r) => [r.entity_id, Boolean(r.guarded)]));
  }

  async replaceExposed(entityIds: readonly string[], guarded: ReadonlySet<string>): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx('home_assistant_exposed').delete();
      for (let i = 0; i < entityIds.length; i += 200) {
        const chunk = entityIds.slice(i, i + 200).map((id) => ({ entity_id: id, guarded: guarded.has(id) }));
        if (chunk.length) await tx('home_assistant_exposed').insert(chunk);
      }
    });
  }

  async rights(): Promise<Map<string, RightsRow>> {
    const rows = await this.db('home_assistant_rights').select<Array<{ user_id: string; allowed: string; guarded: GuardedRule }>>('user_id', 'allowed', 'guarded');
    return new Map(rows.map((r) => [r.user_id, { userId: r.user_id, allowed: JSON.parse(r.allowed) as Allowed, guarded: r.guarded }]));
  }

  async saveRights(row: RightsRow, at: string): Promise<void> {
    await this.db('home_assistant_rights')
      .insert({ user_id: row.userId, allowed: JSON.stringify(row.allowed), guarded: row.guarded, updated_at: at })
      .onConflict('user_id')
      .merge();
  }

  /** A member's favourite entity ids, in their order. */
  async favourites(userId: string): Promise<string[]> {
    const rows = await this.db('home_assistant_favourites').where({ user_id: userId }).orderBy('position').select<Array<{ entity_id: string }>>('entity_id');
    return rows.map((r) => r.entity_id);
  }

  async replaceFavourites(userId: string, entityIds: readonly string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx('home_assistant_favourites').where({ user_id: userId }).delete();
      if (entityIds.length) await tx('home_assistant_favourites').insert(entityIds.map((id, position) => ({ user_id: userId, entity_id: id, position })));
    });
  }

  async addActivity(e: { userId: string | null; userName: string; entityId: string; service: string; source: 'app' | 'chat'; outcome: ActivityOutcome; at: string }): Promise<void> {
    await this.db('home_assistant_activity').insert({ user_id: e.userId, user_name: e.userName, entity_id: e.entityId, service: e.service, source: e.source, outcome: e.outcome, created_at: e.at });
  }

  async activity(limit: number): Promise<ActivityEntry[]> {
    const rows = await this.db('home_assistant_activity').orderBy('id', 'desc').limit(limit).select<ActivityDb[]>('*');
    return rows.map((r) => ({ id: r.id, userId: r.user_id, userName: r.user_name, entityId: r.entity_id, service: r.service, source: r.source, outcome: r.outcome, at: r.created_at }));
  }
}
