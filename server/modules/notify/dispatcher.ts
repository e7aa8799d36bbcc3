// The one dispatcher: a written notification (the notifications module tells the bus,
// notification.created) goes on to the channels its member routed that type to; an admin-targeted
// one (userId null) to every admin's routes. Each channel send is tried up to MAX_ATTEMPTS times
// with a doubling wait when the failure may pass (down, slow, a 5xx), and every outcome is one row
// of the delivery log (who, type, channel, ok, attempts, a sentence; never a secret). In offline
// mode nothing is sent: notifications stay in the app.
import { randomUUID } from 'node:crypto';
import { isRetryableNotifyFailure, notifyFailureKind, notifyFailureSentence } from '../../adapter-errors/notify.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import { CHANNEL_NAMES, missingFor, sendOnce, type OutgoingMessage, type SendContext } from './senders.js';
import type { ChannelType } from './schema.js';
import type { NotifyStore } from './store.js';

export const MAX_ATTEMPTS = 3;
const DELIVERIES_KEPT = 1000;

export interface DispatcherDeps {
  store: NotifyStore;
  clock: Clock;
  logger: Logger;
  send: SendContext;
  backoffMs: number;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
  /** The household's admins, for admin-targeted notifications. */
  adminIds(): Promise<string[]>;
}

export interface DeliveryOutcome {
  ok: boolean;
  attempts: number;
  message: string;
}

/** What a notification says, from its payload (its own title and body when it has them). */
export function describe(type: string, payload: Record<string, unknown>): OutgoingMessage {
  const str = (k: string) => (typeof payload[k] === 'string' ? (payload[k] as string).trim() : '');
  if (type === 'install_request') return { title: `${str('requestedByName') || 'A member'} asks to install ${str('toolName') || 'an extension'}`, body: str('message') };
  const title = str('title') || str('name') || (type === 'download_complete' ? 'A download finished' : type === 'install_complete' ? 'An install finished' : 'Hearth notification');
  return { title, body: str('body') || str('message') };
}

export class NotifyDispatcher {
  private readonly stop = new AbortController();
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly deps: DispatcherDeps) {}

  /** The bus listener: sends in the background (the writer of the notification does not wait). */
  onCreated(n: { userId: string | null; type: string; payload: Record<string, unknown> }): void {
    if (this.deps.offline.isOn() || this.stop.signal.aborted) return;
    const job = this.dispatch(n)
      .catch((err: unknown) => this.deps.logger.error({ err }, 'notification dispatch failed'))
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  private async dispatch(n: { userId: string | null; type: string; payload: Record<string, unknown> }): Promise<void> {
    const recipients = n.userId ? [n.userId] : await this.deps.adminIds();
    const message = describe(n.type, n.payload);
    for (const userId of recipients) {
      const member = await this.deps.store.member(userId);
      const targets = (member?.routes[n.type] ?? []).filter((t): t is ChannelType => t !== 'inapp');
      await Promise.all(targets.map((channel) => this.deliver(userId, n.type, channel, message)));
    }
  }

  /** One channel for one member, retried and logged. */
  async deliver(userId: string, notificationType: string, channel: ChannelType, message: OutgoingMessage): Promise<DeliveryOutcome> {
    const [server, member] = await Promise.all([this.deps.store.channel(channel), this.deps.store.member(userId)]);
    const missing = missingFor(channel, server, member);
    let outcome: DeliveryOutcome & { kind?: string | null };
    if (missing || !server || !member) outcome = { ok: false, attempts: 0, message: missing ?? 'Not set up.' };
    else outcome = await this.attempt(channel, () => sendOnce(this.deps.send, channel, server, member, message));
    const at = this.deps.clock.now().toISOString();
    // the member blocked the bot: their settings say so until a send gets through or they link again
    if (channel === 'telegram' && member) {
      const blocked = outcome.kind === 'blocked_by_user';
      if (blocked !== (member.telegramBlockedAt !== null) && (blocked || outcome.ok)) await this.deps.store.setTelegramBlocked(userId, blocked ? at : null);
    }
    const { kind: _kind, ...logged } = outcome;
    await this.deps.store.addDelivery({ id: randomUUID(), at, userId, notificationType, channel, ...logged });
    await this.deps.store.trimDeliveries(DELIVERIES_KEPT);
    if (!outcome.ok) this.deps.logger.warn({ channel, notificationType, attempts: outcome.attempts }, outcome.message);
    return logged;
  }

  private async attempt(channel: ChannelType, send: () => Promise<void>): Promise<DeliveryOutcome & { kind?: string | null }> {
    let wait = this.deps.backoffMs;
    for (let attempts = 1; ; attempts++) {
      try {
        await send();
        return { ok: true, attempts, message: attempts === 1 ? `Delivered by ${CHANNEL_NAMES[channel]}.` : `Delivered by ${CHANNEL_NAMES[channel]} after ${attempts} tries.` };
      } catch (err) {
        const known = notifyFailureSentence(err);
        const sentence = known ?? `${CHANNEL_NAMES[channel]} failed unexpectedly.`;
        if (known === null) this.deps.logger.error({ err, channel }, 'notification send failed');
        if (!isRetryableNotifyFailure(err) || attempts >= MAX_ATTEMPTS || this.stop.signal.aborted) {
          return { ok: false, attempts, message: attempts > 1 ? `${sentence} Gave up after ${attempts} tries.` : sentence, kind: notifyFailureKind(err) };
        }
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, wait);
        this.stop.signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
      wait *= 2;
    }
  }

  async close(): Promise<void> {
    this.stop.abort();
    await Promise.allSettled([...this.running]);
  }
}
