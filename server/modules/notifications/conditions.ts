// Condition notifications: a notification that describes a state of things ("setup finished
// without the AI models", "downloads failed") rather than an event. Each condition has a key;
// raise(key) creates its one notification or updates its words (never a second copy), and once
// the condition ends the notification is removed: by resolve(key) where the code that ends it
// knows, and by sweep(), which the scheduler runs every few seconds and which asks each watched
// condition that is still open whether it holds. Every condition notification links to its fix.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { EventBus } from '../../platform/event-bus.js';
import type { Logger } from '../../platform/logger.js';
import type { NotificationsStore } from './store.js';

/** How often the scheduler sweeps the open conditions. */
export const CONDITION_SWEEP_MS = 3_000;

/** What a condition notification says, and where its fix is (a path of the web app). */
export interface ConditionText {
  title: string;
  body: string;
  link: string;
  linkLabel: string;
}

/**
 * A watched condition's look at the world: null once it has ended; while it holds, true (keep the
 * words it was raised with) or its words now.
 */
export type ConditionCheck = () => Promise<ConditionText | true | null>;

export class ConditionNotifications {
  private readonly checks = new Map<string, ConditionCheck>();

  constructor(private readonly deps: { store: NotificationsStore; clock: Clock; logger: Logger; bus: EventBus }) {}

  /** Registers how to tell whether the condition `key` still holds (container wiring). */
  watch(key: string, check: ConditionCheck): void {
    this.checks.set(key, check);
  }

  /**
   * Raises the condition for `userId` (null: every admin): one notification per key, created
   * unread, or its words updated when it is already open.
   */
  async raise(key: string, text: ConditionText, opts: { userId?: string | null; unread?: boolean } = {}): Promise<void> {
    const payload = { kind: key, condition: true, ...text };
    const open = await this.deps.store.findCondition(key);
    if (!open) {
      const id = randomUUID();
      await this.deps.store.insertCondition(key, { id, userId: opts.userId ?? null, type: 'system', payload, createdAt: this.deps.clock.now().toISOString() });
      // a new condition is news (sent on to the channels); its later word updates are not
      this.deps.bus.emit('notification.created', { id, userId: opts.userId ?? null, type: 'system', payload });
      return;
    }
    // `unread`: something new happened under the same condition (another download failed)
    if (opts.unread || JSON.stringify(open.payload) !== JSON.stringify(payload)) await this.deps.store.updateConditionPayload(key, payload, opts.unread === true);
  }

  /** The condition ended: its notification goes. */
  async resolve(key: string): Promise<void> {
    const removed = await this.deps.store.removeConditions([key]);
    if (removed) this.deps.logger.info({ condition: key }, 'condition ended; its notification was removed');
  }

  /** Asks every open, watched condition whether it still holds; resolves those that ended, updates the rest. */
  async sweep(): Promise<void> {
    const open = await this.deps.store.openConditionKeys();
    for (const key of open) {
      const check = this.checks.get(key);
      if (!check) continue;
      let text: ConditionText | true | null;
      try {
        text = await check();
      } catch (err) {
        // a check that cannot tell leaves the notification as it is
        this.deps.logger.warn({ err, condition: key }, 'could not check a condition');
        continue;
      }
      if (text === null) await this.resolve(key);
      else if (text !== true) await this.raise(key, text);
    }
  }
}
