// The admin's channel servers: set (Telegram's bot token checked with getMe first; refused and not
// saved when Telegram does not take it), removed, listed without secrets; the delivery log.
import { telegramGetMe } from '../../adapters/notify/telegram.js';
import { notifyCheckAppError } from '../../adapter-errors/notify.js';
import { assertAdmin, type Actor } from '../../actor.js';
import { BadRequestError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import type { SendContext } from './senders.js';
import { CONFIG_BODIES, DELIVERIES_LIMIT, type AdminChannel, type ChannelType, type Delivery } from './schema.js';
import type { ChannelRow, NotifyStore } from './store.js';

export interface ChannelsDeps {
  store: NotifyStore;
  clock: Clock;
  send: SendContext;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
  /** Telegram's bot changed or went: the poller starts or stops. */
  onTelegramChanged(): void;
  polling(): boolean;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

export class NotifyChannelsService {
  constructor(private readonly deps: ChannelsDeps) {}

  private view(type: ChannelType, row: ChannelRow | null): AdminChannel {
    const c = row?.config ?? {};
    return {
      type,
      configured: row !== null,
      url: str(c.url),
      host: str(c.host),
      port: typeof c.port === 'number' ? c.port : null,
      secure: typeof c.secure === 'boolean' ? c.secure : null,
      user: str(c.user),
      from: str(c.from),
      tokenSet: !!row?.secret,
      botUsername: row?.botUsername ?? null,
      polling: type === 'telegram' && this.deps.polling(),
      updatedAt: row?.updatedAt ?? null,
    };
  }

  async list(actor: Actor): Promise<AdminChannel[]> {
    assertAdmin(actor);
    const rows = await this.deps.store.channels();
    return (['ntfy', 'gotify', 'email', 'telegram'] as const).map((t) => this.view(t, rows.find((r) => r.type === t) ?? null));
  }

  async put(actor: Actor, type: ChannelType, body: unknown): Promise<AdminChannel> {
    assertAdmin(actor);
    const parsed = CONFIG_BODIES[type].safeParse(body);
    if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]?.message ?? 'The settings are not valid.', parsed.error.issues);
    const v = parsed.data as Record<string, unknown>;
    const updatedAt = this.deps.clock.now().toISOString();
    let row: ChannelRow;
    if (type === 'telegram') {
      const token = String(v.botToken);
      if (this.deps.offline.isOn()) throw new BadRequestError('Hearth is in offline mode: Telegram cannot be reached to check the bot token.', undefined, 'offline_mode');
      let username: string;
      try {
        username = await telegramGetMe(this.deps.send.guard, this.deps.send.telegramApiUrl, token, this.deps.send.timeoutMs);
      } catch (err) {
        throw notifyCheckAppError(err, 'Telegram');
      }
      const before = await this.deps.store.channel('telegram');
      // another bot: the chats linked to the old one cannot be written to by the new one
      if (before && before.secret !== token) await this.deps.store.unlinkAllTelegram();
      row = { type, config: {}, secret: token, botUsername: username, updatedAt };
    } else {
      const before = await this.deps.store.channel(type);
      const { token, password, ...config } = v;
      // a kept secret stays when the form leaves it out (the admin never sees it to send it back)
      const secret = type === 'ntfy' ? ((token as string | undefined) ?? (before?.config.url === config.url ? before?.secret : null) ?? null) : type === 'email' ? ((password as string | undefined) ?? before?.secret ?? null) : null;
      row = { type, config, secret, botUsername: null, updatedAt };
    }
    await this.deps.store.putChannel(row);
    if (type === 'telegram') this.deps.onTelegramChanged();
    return this.view(type, row);
  }

  async remove(actor: Actor, type: ChannelType): Promise<boolean> {
    assertAdmin(actor);
    const deleted = await this.deps.store.deleteChannel(type);
    if (type === 'telegram' && deleted) {
      await this.deps.store.unlinkAllTelegram();
      this.deps.onTelegramChanged();
    }
    return deleted;
  }

  async deliveries(actor: Actor): Promise<Delivery[]> {
    assertAdmin(actor);
    return this.deps.store.deliveries(DELIVERIES_LIMIT);
  }
}
