// The Telegram long poll: while a bot is connected (and not in offline mode), getUpdates is asked
// again and again with the offset after the last update seen; a message `/start <code>` with a
// code made for a member links that chat to the member and is answered "Linked"; an unknown or
// expired code is answered with a hint and links nothing. A failed poll waits (doubling, up to a
// minute) before the next. Stopped by close() and when the admin removes or replaces the bot.
import { notifyFailureKind, notifyFailureSentence } from '../../adapter-errors/notify.js';
import { telegramGetUpdates, telegramSendMessage, type TelegramUpdate } from '../../adapters/notify/telegram.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import { hashCode } from './member-service.js';
import type { SendContext } from './senders.js';
import type { NotifyStore } from './store.js';

export interface PollerDeps {
  store: NotifyStore;
  clock: Clock;
  logger: Logger;
  send: SendContext;
  waitSeconds: number;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
}

export const HINT = 'That code is not known or has expired. In Hearth, open Profile > Notifications and press "Link Telegram" for a new link.';

export class TelegramPoller {
  private controller: AbortController | null = null;
  private loop: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly deps: PollerDeps) {}

  get running(): boolean {
    return this.controller !== null;
  }

  /** (Re)starts the loop for the bot now stored; stops it when there is none. */
  async restart(): Promise<void> {
    await this.stop();
    if (this.closed || this.deps.offline.isOn()) return;
    const bot = await this.deps.store.channel('telegram');
    if (!bot?.secret) return;
    const controller = new AbortController();
    this.controller = controller;
    this.loop = this.run(bot.secret, controller.signal).catch((err: unknown) => this.deps.logger.error({ err }, 'telegram poll stopped'));
  }

  private async run(token: string, signal: AbortSignal): Promise<void> {
    let offset = 0;
    let wait = 1000;
    while (!signal.aborted) {
      let updates: TelegramUpdate[];
      try {
        updates = await telegramGetUpdates(this.deps.send.guard, this.deps.send.telegramApiUrl, token, offset, this.deps.waitSeconds, signal);
        wait = 1000;
      } catch (err) {
        if (signal.aborted) return;
        this.deps.logger.warn({ failure: notifyFailureKind(err) ?? 'unknown' }, notifyFailureSentence(err) ?? 'The Telegram poll failed.');
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait);
          signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
        });
        wait = Math.min(wait * 2, 60_000);
        continue;
      }
      for (const u of updates) {
        offset = Math.max(offset, u.updateId + 1);
        await this.handle(token, u).catch((err: unknown) => this.deps.logger.warn({ failure: notifyFailureKind(err) ?? 'unknown' }, 'A Telegram reply failed.'));
      }
    }
  }

  private async handle(token: string, u: TelegramUpdate): Promise<void> {
    const m = u.text?.trim().match(/^\/start(?:@\w+)?(?:\s+(\S+))?$/);
    if (!m || !u.chatId) return;
    const now = this.deps.clock.now().toISOString();
    const userId = m[1] && m[1].length <= 64 ? await this.deps.store.takeLinkCode(hashCode(m[1]), now) : null;
    const { guard, telegramApiUrl, timeoutMs } = this.deps.send;
    if (!userId) {
      await telegramSendMessage(guard, telegramApiUrl, token, u.chatId, HINT, timeoutMs);
      return;
    }
    await this.deps.store.linkTelegram(userId, u.chatId, now);
    this.deps.logger.info({ userId }, 'telegram chat linked');
    await telegramSendMessage(guard, telegramApiUrl, token, u.chatId, 'Linked: Hearth will send your notifications here.', timeoutMs);
  }

  async stop(): Promise<void> {
    this.controller?.abort();
    this.controller = null;
    await this.loop;
    this.loop = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
  }
}
