// notify_channels, notify_members, notify_link_codes and notify_deliveries. Secrets are read here
// only for the dispatcher and the adapters; the services map rows to answers without them.
import type { Knex } from 'knex';
import type { ChannelType, Delivery, RouteTarget } from './schema.js';

export interface ChannelRow {
  type: ChannelType;
  config: Record<string, unknown>;
  secret: string | null;
  botUsername: string | null;
  updatedAt: string;
}

export interface MemberRow {
  userId: string;
  ntfyTopic: string | null;
  gotifyToken: string | null;
  emailAddress: string | null;
  telegramChatId: string | null;
  telegramLinkedAt: string | null;
  telegramBlockedAt: string | null;
  routes: Record<string, RouteTarget[]>;
  updatedAt: string;
}

const json = <T>(s: string | null, fallback: T): T => {
  try {
    return s ? (JSON.parse(s) as T) : fallback;
  } catch {
    return fallback;
  }
};

interface RawMember {
  user_id: string;
  ntfy_topic: string | null;
  gotify_token: string | null;
  email_address: string | null;
  telegram_chat_id: string | null;
  telegram_linked_at: string | null;
  telegram_blocked_at: string | null;
  routes: string;
  updated_at: string;
}
const toMember = (r: RawMember): MemberRow => ({
  userId: r.user_id,
  ntfyTopic: r.ntfy_topic,
  gotifyToken: r.gotify_token,
  emailAddress: r.email_address,
  telegramChatId: r.telegram_chat_id,
  telegramLinkedAt: r.telegram_linked_at,
  telegramBlockedAt: r.telegram_blocked_at,
  routes: json(r.routes, {}),
  updatedAt: r.updated_at,
});

export class NotifyStore {
  constructor(private readonly db: Knex) {}

  async channels(): Promise<ChannelRow[]> {
    const rows = (await this.db('notify_channels').select('*')) as Array<{ type: ChannelType; config: string; secret: string | null; bot_username: string | null; updated_at: string }>;
    return rows.map((r) => ({ type: r.type, config: json(r.config, {}), secret: r.secret, botUsername: r.bot_username, updatedAt: r.updated_at }));
  }

  async channel(type: ChannelType): Promise<ChannelRow | null> {
    return (await this.channels()).find((c) => c.type === type) ?? null;
  }

  async putChannel(c: ChannelRow): Promise<void> {
    await this.db('notify_channels')
      .insert({ type: c.type, config: JSON.stringify(c.config), secret: c.secret, bot_username: c.botUsername, updated_at: c.updatedAt })
      .onConflict('type')
      .merge();
  }

  async deleteChannel(type: ChannelType): Promise<boolean> {
    return (await this.db('notify_channels').where({ type }).delete()) > 0;
  }

  async member(userId: string): Promise<MemberRow | null> {
    const r = (await this.db('notify_members').where({ user_id: userId }).first()) as RawMember | undefined;
    return r ? toMember(r) : null;
  }

  async putMember(m: MemberRow): Promise<void> {
    await this.db('notify_members')
      .insert({
        user_id: m.userId,
        ntfy_topic: m.ntfyTopic,
        gotify_token: m.gotifyToken,
        email_address: m.emailAddress,
        telegram_chat_id: m.telegramChatId,
        telegram_linked_at: m.telegramLinkedAt,
        telegram_blocked_at: m.telegramBlockedAt,
        routes: JSON.stringify(m.routes),
        updated_at: m.updatedAt,
      })
      .onConflict('user_id')
      .merge();
  }

  /** Forgets every linked Telegram chat (the bot changed or went). */
  async unlinkAllTelegram(): Promise<void> {
    await this.db('notify_members').update({ telegram_chat_id: null, telegram_linked_at: null, telegram_blocked_at: null });
    await this.db('notify_link_codes').delete();
  }

  async putLinkCode(codeHash: string, userId: string, expiresAt: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('notify_link_codes').where({ user_id: userId }).delete();
      await trx('notify_link_codes').insert({ code_hash: codeHash, user_id: userId, expires_at: expiresAt });
    });
  }

  async pendingCode(userId: string, now: string): Promise<boolean> {
    return (await this.db('notify_link_codes').where({ user_id: userId }).andWhere('expires_at', '>', now).first()) !== undefined;
  }

  /** Takes a code once: the member it was for, null when unknown or expired. */
  async takeLinkCode(codeHash: string, now: string): Promise<string | null> {
    return this.db.transaction(async (trx) => {
      const row = (await trx('notify_link_codes').where({ code_hash: codeHash }).first()) as { user_id: string; expires_at: string } | undefined;
      if (!row) return null;
      await trx('notify_link_codes').where({ code_hash: codeHash }).delete();
      return row.expires_at > now ? row.user_id : null;
    });
  }

  async linkTelegram(userId: string, chatId: string, at: string): Promise<void> {
    const existing = await this.member(userId);
    await this.putMember({
      ...(existing ?? { userId, ntfyTopic: null, gotifyToken: null, emailAddress: null, routes: {} }),
      telegramChatId: chatId,
      telegramLinkedAt: at,
      telegramBlockedAt: null,
      updatedAt: at,
    });
  }

  /** Telegram refused a send to the member's chat (403: they blocked the bot), or took one again (null). */
  async setTelegramBlocked(userId: string, at: string | null): Promise<void> {
    await this.db('notify_members').where({ user_id: userId }).update({ telegram_blocked_at: at });
  }

  async addDelivery(d: Omit<Delivery, 'memberName'>): Promise<void> {
    await this.db('notify_deliveries').insert({ id: d.id, at: d.at, user_id: d.userId, notification_type: d.notificationType, channel: d.channel, ok: d.ok, attempts: d.attempts, message: d.message });
  }

  async deliveries(limit: number): Promise<Delivery[]> {
    const rows = (await this.db('notify_deliveries as d')
      .leftJoin('users as u', 'u.id', 'd.user_id')
      .select('d.*', 'u.name as member_name')
      .orderBy([
        { column: 'd.at', order: 'desc' },
        { column: 'd.rowid', order: 'desc' },
      ])
      .limit(limit)) as Array<{ id: string; at: string; user_id: string | null; member_name: string | null; notification_type: string; channel: ChannelType; ok: number; attempts: number; message: string }>;
    return rows.map((r) => ({ id: r.id, at: r.at, userId: r.user_id, memberName: r.member_name, notificationType: r.notification_type, channel: r.channel, ok: r.ok === 1, attempts: r.attempts, message: r.message }));
  }

  /** Trims the log to its newest rows. */
  async trimDeliveries(keep: number): Promise<void> {
    await this.db.raw('DELETE FROM notify_deliveries WHERE id NOT IN (SELECT id FROM notify_deliveries ORDER BY at DESC LIMIT ?)', [keep]);
  }
}
