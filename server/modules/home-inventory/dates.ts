// Calendar days for warranties and maintenance: the household's local date (the Hearth computer's
// time zone), as YYYY-MM-DD, from the injectable clock so tests can move time.
import type { Clock } from '../../platform/clock.js';
import type { WarrantyStatus } from './schema.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** The local calendar date of an instant, YYYY-MM-DD. */
export function localDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function todayOf(clock: Clock): string {
  return localDate(clock.now());
}

/** Whole days from `from` to `to` (both YYYY-MM-DD); negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  const ms = Date.UTC(+to.slice(0, 4), +to.slice(5, 7) - 1, +to.slice(8, 10)) - Date.UTC(+from.slice(0, 4), +from.slice(5, 7) - 1, +from.slice(8, 10));
  return Math.round(ms / 86_400_000);
}

export function addDays(date: string, days: number): string {
  const d = new Date(Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10) + days));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * A warranty's state on `today`: expired once the end date has passed (the last day still counts),
 * expiring within `windowDays`, else active; none without an end date.
 */
export function warrantyStatus(expires: string | null, today: string, windowDays: number): WarrantyStatus {
  if (!expires) return 'none';
  const left = daysBetween(today, expires);
  if (left < 0) return 'expired';
  return left <= windowDays ? 'expiring' : 'active';
}
