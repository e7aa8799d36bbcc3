// Each member's channels (their ntfy topic, Gotify application token, e-mail address, linked
// Telegram chat) and routes (notification type -> where it goes), a test send per channel, and the
// Telegram self-link code: a one-time code (hashed at rest, 10 minutes, single use) the member sends
// to the bot as `/start <code>` through the t.me deep link.
import { createHash, randomBytes } from 'node:crypto';
import { isAdmin, type UserActor } from '../../actor.js';
import { BadRequestError, ConflictError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import { offlineMessage } from '../../platform/ssrf.js';
import type { NotifyDispatcher } from './dispatcher.js';
import { CHANNEL_NAMES, missingFor } from './senders.js';
import { NotificationType, type ChannelType, type LinkCodeResponse, type LinkStatusResponse, type MemberRoutes, type RoutesBody, type TestResponse } from './schema.js';
import type { MemberRow, NotifyStore } from './store.js';

export const LINK_CODE_TTL_MS = 10 * 60_000;
export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

export interface MemberDeps {
  store: NotifyStore;
  clock: Clock;
  dispatcher: NotifyDispatcher;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
}

const empty = (userId: string, at: string): MemberRow => ({ userId, ntfyTopic: null, gotifyToken: null, emailAddress: null, telegramChatId: null, telegramLinkedAt: null, telegramBlockedAt: null, routes: {}, updatedAt: at });

export class NotifyMemberService {
  constructor(private readonly deps: MemberDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  private async available(): Promise<ChannelType[]> {
    return (await this.deps.store.channels()).map((c) => c.type);
  }

  async routes(actor: UserActor): Promise<MemberRoutes> {
    const m = (await this.deps.store.member(actor.id)) ?? empty(actor.id, this.now());
    return {
      channels: {
        ntfy: m.ntfyTopic ? { topic: m.ntfyTopic } : null,
        gotify: m.gotifyToken ? { tokenSet: true } : null,
        email: m.emailAddress ? { address: m.emailAddress } : null,
        telegram: { linked: m.telegramChatId !== null, linkedAt: m.telegramLinkedAt, blocked: m.telegramChatId !== null && m.telegramBlockedAt !== null },
      },
      routes: m.routes,
      // app requests go to the admins only: a member is not offered a route for them
      types: NotificationType.options.filter((t) => t !== 'install_request' || isAdmin(actor)),
      available: await this.available(),
      offline: this.deps.offline.isOn(),
    };
  }

  /**
   * Replaces the routes and sets the channels given (a channel left out keeps its value, null clears
   * it). A route to a channel the admin has not set up is refused; so is one to a channel the
   * member has no address for.
   */
  async putRoutes(actor: UserActor, body: RoutesBody): Promise<MemberRoutes> {
    const now = this.now();
    const before = (await this.deps.store.member(actor.id)) ?? empty(actor.id, now);
    const c = body.channels;
    const next: MemberRow = {
      ...before,
      ntfyTopic: c.ntfy === undefined ? before.ntfyTopic : (c.ntfy?.topic ?? null),
      gotifyToken: c.gotify === undefined ? before.gotifyToken : (c.gotify?.token ?? null),
      emailAddress: c.email === undefined ? before.emailAddress : (c.email?.address ?? null),
      routes: {},
      updatedAt: now,
    };
    const available = new Set(await this.available());
    for (const [type, targets] of Object.entries(body.routes)) {
      if (type === 'install_request' && !isAdmin(actor) && (targets ?? []).length > 0) throw new UnprocessableError('admins_only', 'App requests go to the admins only, so there is nothing to route for you.');
      const unique = [...new Set(targets ?? [])];
      for (const t of unique) {
        if (t === 'inapp') continue;
        if (!available.has(t)) throw new UnprocessableError('channel_not_set_up', `${CHANNEL_NAMES[t]} is not set up on this Hearth yet. Ask an admin to connect it first.`);
        const missing = missingFor(t, { type: t, config: {}, secret: null, botUsername: null, updatedAt: now }, next);
        if (missing) throw new UnprocessableError('channel_address_missing', missing);
      }
      if (unique.length > 0) next.routes[type] = unique;
    }
    await this.deps.store.putMember(next);
    return this.routes(actor);
  }

  async test(actor: UserActor, type: ChannelType): Promise<TestResponse> {
    if (this.deps.offline.isOn()) throw new ServiceUnavailableError('offline_mode', `${offlineMessage(this.deps.offline.reason)} Notifications stay in the app.`);
    const outcome = await this.deps.dispatcher.deliver(actor.id, 'test', type, { title: 'Test from Hearth', body: `This is a test notification for ${actor.name}. If you can read it, ${CHANNEL_NAMES[type]} works.` });
    return { delivered: outcome.ok, attempts: outcome.attempts, message: outcome.message };
  }

  async linkCode(actor: UserActor): Promise<LinkCodeResponse> {
    const bot = await this.deps.store.channel('telegram');
    if (!bot?.botUsername) throw new ConflictError('telegram_not_set_up', 'Telegram is not set up on this Hearth yet. Ask an admin to connect a bot first.');
    if (this.deps.offline.isOn()) throw new UnprocessableError('offline_mode', 'Hearth is in offline mode: Telegram cannot be reached, so it cannot be linked now.');
    const code = randomBytes(18).toString('base64url'); // 24 characters of A-Za-z0-9_-
    const expiresAt = new Date(this.deps.clock.now().getTime() + LINK_CODE_TTL_MS).toISOString();
    await this.deps.store.putLinkCode(hashCode(code), actor.id, expiresAt);
    return { code, url: `https://t.me/${bot.botUsername}?start=${code}`, expiresAt };
  }

  async linkStatus(actor: UserActor): Promise<LinkStatusResponse> {
    const [m, bot, pending] = await Promise.all([this.deps.store.member(actor.id), this.deps.store.channel('telegram'), this.deps.store.pendingCode(actor.id, this.now())]);
    return { linked: !!m?.telegramChatId, linkedAt: m?.telegramLinkedAt ?? null, blocked: !!m?.telegramChatId && !!m.telegramBlockedAt, botUsername: bot?.botUsername ?? null, pending };
  }

  /** Unlinks the member's Telegram chat (and drops a Telegram route). */
  async unlink(actor: UserActor): Promise<boolean> {
    const m = await this.deps.store.member(actor.id);
    if (!m?.telegramChatId) return false;
    const routes = Object.fromEntries(Object.entries(m.routes).map(([k, v]) => [k, v.filter((t) => t !== 'telegram')]));
    await this.deps.store.putMember({ ...m, telegramChatId: null, telegramLinkedAt: null, telegramBlockedAt: null, routes, updatedAt: this.now() });
    return true;
  }

  /** Rejects a test of anything but a known channel (the route's param is parsed already). */
  static checkType(type: string): asserts type is ChannelType {
    if (!['ntfy', 'gotify', 'email', 'telegram'].includes(type)) throw new BadRequestError('That is not a notification channel.');
  }
}
