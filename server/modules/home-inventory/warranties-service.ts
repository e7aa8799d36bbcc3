// Warranties: which end within a window and which have ended, on the household's calendar date
// from the injectable clock; and the reminder sweep, which tells the device's adder (or the admins
// when the adder is gone) 30 and 7 days before a warranty ends, once per threshold per end date.
import type { UserActor } from '../../actor.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { NotificationsService } from '../notifications/service.js';
import { addDays, daysBetween, todayOf } from './dates.js';
import { WARRANTY_NUDGE_DAYS, type WarrantiesResponse } from './schema.js';
import type { DeviceRecord, HomeInventoryStore } from './store.js';
import { devicePageUrl, summaryView } from './views.js';
import type { z } from 'zod';

export const WARRANTY_SWEEP_TASK = 'home-inventory.warranty-sweep';
/**
 * How often the sweep looks. Daily reminders, but the sweep is cheap and never sends one twice,
 * so it looks every hour: a Hearth that is off at night or restarted often still reminds that day.
 */
export const WARRANTY_SWEEP_MS = 60 * 60 * 1000;

export interface HomeWarrantiesDeps {
  store: HomeInventoryStore;
  notifications: Pick<NotificationsService, 'notify'>;
  clock: Clock;
  logger: Logger;
}

export interface SweepResult {
  today: string;
  sent: number;
}

/** The reminder a device's adder gets (the bell shows title and body; link opens the device). */
export function warrantyPayload(d: Pick<DeviceRecord, 'id' | 'name' | 'warrantyExpires'>, daysLeft: number): Record<string, unknown> {
  const when = daysLeft === 0 ? 'today' : daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`;
  const link = devicePageUrl(d.id);
  return {
    kind: 'warranty_reminder',
    deviceId: d.id,
    name: d.name,
    warrantyExpires: d.warrantyExpires,
    daysLeft,
    title: `The warranty on “${d.name}” ends ${when}`,
    body: `The warranty on “${d.name}” ends ${when}, on ${d.warrantyExpires}. If anything is wrong with it, now is the time to ask for a repair. Open it in the Inventory: ${link}`,
    link,
  };
}

export class HomeWarrantiesService {
  constructor(private readonly deps: HomeWarrantiesDeps) {}

  async list(actor: UserActor, days: number): Promise<z.input<typeof WarrantiesResponse>> {
    const today = todayOf(this.deps.clock);
    const rows = await this.deps.store.listWarrantiesUntil(addDays(today, days));
    const expiring = [];
    const expired = [];
    for (const d of rows) {
      const left = daysBetween(today, d.warrantyExpires!);
      const row = { ...summaryView(actor, d, today), daysLeft: left };
      if (left < 0) expired.push(row);
      else expiring.push({ ...row, warrantyStatus: 'expiring' as const });
    }
    // the most recently ended first
    expired.reverse();
    return { today, days, expiring, expired };
  }

  /**
   * Sends the reminders due today. The 7-day one is sent when a warranty is 7 days or less from
   * its end (and then the 30-day one is not sent late); the 30-day one from 30 days. Each is
   * recorded against the end date it was for: an edit that keeps the date never sends it again,
   * a new date may.
   */
  async sweep(): Promise<SweepResult> {
    const today = todayOf(this.deps.clock);
    const [far, near] = [Math.max(...WARRANTY_NUDGE_DAYS), Math.min(...WARRANTY_NUDGE_DAYS)];
    const due = await this.deps.store.listWarrantiesUntil(addDays(today, far));
    let sent = 0;
    for (const d of due) {
      const expires = d.warrantyExpires!;
      const left = daysBetween(today, expires);
      if (left < 0) continue;
      if (left <= near) {
        if (d.warrantyNudged7For === expires) continue;
        await this.deps.notifications.notify({ userId: d.createdBy, type: 'system', payload: warrantyPayload(d, left) });
        await this.deps.store.updateDevice(d.id, { warrantyNudged7For: expires, warrantyNudged30For: expires });
        sent++;
      } else if (d.warrantyNudged30For !== expires) {
        await this.deps.notifications.notify({ userId: d.createdBy, type: 'system', payload: warrantyPayload(d, left) });
        await this.deps.store.updateDevice(d.id, { warrantyNudged30For: expires });
        sent++;
      }
    }
    if (sent) this.deps.logger.info({ sent, today }, 'warranty reminders sent');
    return { today, sent };
  }
}
