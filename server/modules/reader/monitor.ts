// Change monitoring (spec: Reader, "Change monitoring"): on each scheduler tick, the autoUpdate
// items that are due are re-captured one at a time through the reader service's captureNow, which
// hashes the normalized text and records lastCheckedAt/contentChangedAt and the change history.
// When the text changed and alertOnChange is set, the owner gets a `system` notification naming
// the item. A failed capture (a challenge page, the site down) is never a change and never
// notifies: the service keeps the previous content and hash. The first capture (no previous hash)
// is the baseline and never notifies either.
//
// Due: lastCheckedAt is null, or older than autoUpdateIntervalMins (null = daily). A failed check
// does not move lastCheckedAt, so the monitor remembers failures itself and tries that item again
// after its interval, at most FAILURE_RETRY_MINS later (in memory: a restart retries at once).
// Ticks never overlap (the scheduler skips a tick while the previous one runs).
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { NotificationsService } from '../notifications/service.js';
import { CaptureError } from './capture/types.js';
import type { CaptureOutcome, ItemRecord } from './schema.js';
import type { ReaderStore } from './store.js';

export const MONITOR_TICK_MS = 5 * 60_000;
export const DEFAULT_INTERVAL_MINS = 24 * 60;
export const FAILURE_RETRY_MINS = 6 * 60;
export const MONITOR_TASK = 'reader.monitor';
const MAX_PER_TICK = 25;

export interface ReaderMonitorDeps {
  store: Pick<ReaderStore, 'findById' | 'monitoredItems'>;
  capture: { captureNow(itemId: string, reason: 'monitor'): Promise<CaptureOutcome> };
  notifications: Pick<NotificationsService, 'notify'>;
  clock: Clock;
  logger: Logger;
  /** Items re-captured per tick at most; the rest wait for the next tick (default 25). */
  maxPerTick?: number;
}

export interface MonitorTickResult {
  checked: number;
  changed: number;
  notified: number;
  failed: number;
}

const minutes = (n: number) => n * 60_000;

export class ReaderMonitor {
  /** itemId -> when its last check failed (ms). */
  private readonly failedAt = new Map<string, number>();
  private running: Promise<MonitorTickResult> | null = null;

  constructor(private readonly deps: ReaderMonitorDeps) {}

  /** The autoUpdate items due now, the longest unchecked first. */
  async dueItemIds(): Promise<string[]> {
    const now = this.deps.clock.now().getTime();
    const due: Array<{ id: string; since: number }> = [];
    for (const r of await this.deps.store.monitoredItems()) {
      const interval = minutes(r.autoUpdateIntervalMins && r.autoUpdateIntervalMins > 0 ? r.autoUpdateIntervalMins : DEFAULT_INTERVAL_MINS);
      const checked = r.lastCheckedAt ? Date.parse(r.lastCheckedAt) : Number.NEGATIVE_INFINITY;
      const failed = this.failedAt.get(r.id);
      if (failed !== undefined && failed > checked && now - failed < Math.min(interval, minutes(FAILURE_RETRY_MINS))) continue;
      if (now - checked >= interval) due.push({ id: r.id, since: Number.isFinite(checked) ? checked : Number.NEGATIVE_INFINITY });
    }
    return due.sort((a, b) => a.since - b.since).map((d) => d.id);
  }

  /** One poll. Calls made while one runs share it instead of starting another. */
  tick(): Promise<MonitorTickResult> {
    if (!this.running) {
      this.running = this.poll().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async poll(): Promise<MonitorTickResult> {
    const result: MonitorTickResult = { checked: 0, changed: 0, notified: 0, failed: 0 };
    const ids = (await this.dueItemIds()).slice(0, this.deps.maxPerTick ?? MAX_PER_TICK);
    for (const id of ids) {
      const before = await this.deps.store.findById(id);
      if (!before?.autoUpdate) continue; // deleted or switched off since the list was read
      // Its (baseline) capture is queued or running: the queue records that check.
      if (before.archiveState === 'pending' || before.archiveState === 'fetching') continue;
      result.checked++;
      let outcome: CaptureOutcome;
      try {
        outcome = await this.deps.capture.captureNow(id, 'monitor');
      } catch (err) {
        result.failed++;
        this.failedAt.set(id, this.deps.clock.now().getTime());
        if (err instanceof CaptureError) this.deps.logger.info({ itemId: id, code: err.code }, 'monitored item could not be checked');
        else this.deps.logger.warn({ err, itemId: id }, 'monitored item check failed');
        continue;
      }
      this.failedAt.delete(id);
      if (!outcome.changed || outcome.previousHash === null) continue;
      result.changed++;
      // Read again: the capture may have filled the title, and the owner may have switched alerts off meanwhile.
      const item = await this.deps.store.findById(id);
      if (!item?.alertOnChange || !item.ownerId) continue;
      await this.deps.notifications.notify({ userId: item.ownerId, type: 'system', payload: changePayload(item) });
      result.notified++;
    }
    if (result.checked) this.deps.logger.info({ ...result }, 'reader monitor tick');
    return result;
  }
}

/** The notification a changed item sends its owner (rendered by the web app's bell as title + body). */
export function changePayload(item: Pick<ItemRecord, 'id' | 'title' | 'url' | 'siteName'>): Record<string, unknown> {
  let host = item.url;
  try {
    host = new URL(item.url).hostname.replace(/^www\./, '');
  } catch {
    // keep the raw URL
  }
  const name = item.title?.trim() || host;
  const site = item.siteName?.trim() || host;
  const link = `/reader/${item.id}`;
  return {
    kind: 'reader_change',
    itemId: item.id,
    title: `“${name}” changed`,
    body: `The page on ${site} has new text since Hearth last checked. Open it in Reader: ${link}`,
    link,
    url: item.url,
  };
}
