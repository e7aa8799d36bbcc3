// The connection's rows: the household's one shared server (media_server_connection, id
// 'household'), each member's linked account (media_server_links) and the PIN flows in progress
// (media_server_pins). Tokens live only here; nothing above the service ever sees a row.
import type { Knex } from 'knex';
import type { ConnectionRow, LinkRow, PinRow } from './parts.js';
import type { ServerHealth } from './schema.js';

const HOUSEHOLD = 'household';

interface ConnectionDb {
  server_url: string;
  server_token: string;
  machine_identifier: string;
  server_name: string;
  server_version: string | null;
  source: 'manual' | 'discover';
  account_name: string | null;
  health: ServerHealth;
  checked_at: string | null;
  updated_at: string;
  updated_by: string | null;
}

interface LinkDb {
  user_id: string;
  token: string;
  account_id: number;
  username: string;
  display_name: string | null;
  thumb_url: string | null;
  token_state: 'valid' | 'revoked';
  server_access: number | boolean | null;
  linked_at: string;
  checked_at: string | null;
}

interface PinDb {
  pin_id: number;
  user_id: string;
  code: string;
  auth_token: string | null;
  expires_at: string;
  created_at: string;
}

const toConnection = (r: ConnectionDb): ConnectionRow => ({
  serverUrl: r.server_url,
  serverToken: r.server_token,
  machineIdentifier: r.machine_identifier,
  serverName: r.server_name,
  serverVersion: r.server_version,
  source: r.source,
  accountName: r.account_name,
  health: r.health,
  checkedAt: r.checked_at,
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});

const toLink = (r: LinkDb): LinkRow => ({
  userId: r.user_id,
  token: r.token,
  accountId: r.account_id,
  username: r.username,
  displayName: r.display_name,
  thumbUrl: r.thumb_url,
  tokenState: r.token_state,
  serverAccess: r.server_access === null ? null : Boolean(r.server_access),
  linkedAt: r.linked_at,
  checkedAt: r.checked_at,
});

const toPin = (r: PinDb): PinRow => ({ pinId: r.pin_id, userId: r.user_id, code: r.code, authToken: r.auth_token, expiresAt: r.expires_at, createdAt: r.created_at });

export class MediaConnectionStore {
  constructor(private readonly db: Knex) {}

  // ---- the shared connection ----
  async connection(): Promise<ConnectionRow | null> {
    const row = await this.db('media_server_connection').where({ id: HOUSEHOLD }).first<ConnectionDb | undefined>();
    return row ? toConnection(row) : null;
  }

  async saveConnection(c: ConnectionRow): Promise<void> {
    await this.db('media_server_connection')
      .insert({
        id: HOUSEHOLD,
        server_url: c.serverUrl,
        server_token: c.serverToken,
        machine_identifier: c.machineIdentifier,
        server_name: c.serverName,
        server_version: c.serverVersion,
        source: c.source,
        account_name: c.accountName,
        health: c.health,
        checked_at: c.checkedAt,
        updated_at: c.updatedAt,
        updated_by: c.updatedBy,
      })
      .onConflict('id')
      .merge();
  }

  async setHealth(health: ServerHealth, checkedAt: string, fields: { serverName?: string; serverVersion?: string | null } = {}): Promise<void> {
    const patch: Record<string, unknown> = { health, checked_at: checkedAt };
    if (fields.serverName !== undefined) patch.server_name = fields.serverName;
    if (fields.serverVersion !== undefined) patch.server_version = fields.serverVersion;
    await this.db('media_server_connection').where({ id: HOUSEHOLD }).update(patch);
  }

  async deleteConnection(): Promise<void> {
    await this.db('media_server_connection').where({ id: HOUSEHOLD }).delete();
  }

  // ---- member links ----
  async link(userId: string): Promise<LinkRow | null> {
    const row = await this.db('media_server_links').where({ user_id: userId }).first<LinkDb | undefined>();
    return row ? toLink(row) : null;
  }

  async saveLink(l: LinkRow): Promise<void> {
    await this.db('media_server_links')
      .insert({
        user_id: l.userId,
        token: l.token,
        account_id: l.accountId,
        username: l.username,
        display_name: l.displayName,
        thumb_url: l.thumbUrl,
        token_state: l.tokenState,
        server_access: l.serverAccess,
        linked_at: l.linkedAt,
        checked_at: l.checkedAt,
      })
      .onConflict('user_id')
      .merge();
  }

  async updateLink(userId: string, patch: { tokenState?: 'valid' | 'revoked'; serverAccess?: boolean | null; checkedAt?: string }): Promise<void> {
    const row: Record<string, unknown> = {};
    if (patch.tokenState !== undefined) row.token_state = patch.tokenState;
    if (patch.serverAccess !== undefined) row.server_access = patch.serverAccess;
    if (patch.checkedAt !== undefined) row.checked_at = patch.checkedAt;
    if (Object.keys(row).length > 0) await this.db('media_server_links').where({ user_id: userId }).update(row);
  }

  /** Every link's server access is unknown again (the shared server changed). */
  async forgetServerAccess(): Promise<void> {
    await this.db('media_server_links').update({ server_access: null });
  }

  async deleteLink(userId: string): Promise<void> {
    await this.db('media_server_links').where({ user_id: userId }).delete();
  }

  // ---- PINs ----
  async pin(pinId: number): Promise<PinRow | null> {
    const row = await this.db('media_server_pins').where({ pin_id: pinId }).first<PinDb | undefined>();
    return row ? toPin(row) : null;
  }

  async savePin(p: PinRow): Promise<void> {
    await this.db('media_server_pins')
      .insert({ pin_id: p.pinId, user_id: p.userId, code: p.code, auth_token: p.authToken, expires_at: p.expiresAt, created_at: p.createdAt })
      .onConflict('pin_id')
      .merge();
  }

  async setPinToken(pinId: number, token: string | null): Promise<void> {
    await this.db('media_server_pins').where({ pin_id: pinId }).update({ auth_token: token });
  }

  async deletePin(pinId: number): Promise<void> {
    await this.db('media_server_pins').where({ pin_id: pinId }).delete();
  }

  async deletePinsOf(userId: string): Promise<void> {
    await this.db('media_server_pins').where({ user_id: userId }).delete();
  }

  /** PINs that expired before `before` (ISO), with any token they held. */
  async prunePins(before: string): Promise<number> {
    return this.db('media_server_pins').where('expires_at', '<', before).delete();
  }
}
