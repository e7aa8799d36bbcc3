// Injectable time, so lockouts, session expiry and schedules can be tested without waiting.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export function createManualClock(start = new Date('2026-01-01T00:00:00Z')): Clock & { advance(ms: number): void; set(d: Date): void } {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
    set: (d) => {
      t = d.getTime();
    },
  };
}

/** This computer's own time zone (TZ, else the system's): the household's until an admin picks one. */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();
/** Minutes east of UTC that `timeZone` is at `d` (DST included). */
export function zoneOffsetMinutes(d: Date, timeZone: string): number {
  let f = wallClocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    wallClocks.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((wall - Math.floor(d.getTime() / 1000) * 1000) / 60_000);
}

/**
 * A UTC time as ISO with the household's offset, e.g. 2026-10-04T20:30:00+02:00: in `timeZone` (the
 * household's locale setting) or, without one, this computer's.
 */
export function withLocalOffset(d: Date, timeZone?: string): string {
  const off = timeZone ? zoneOffsetMinutes(d, timeZone) : -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 19);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The household's calendar date (YYYY-MM-DD) and hour at `d`, in `timeZone`. */
export function zonedDay(d: Date, timeZone?: string): { date: string; hour: number } {
  const iso = withLocalOffset(d, timeZone);
  return { date: iso.slice(0, 10), hour: Number(iso.slice(11, 13)) };
}

/** The instant the day `date` (YYYY-MM-DD) begins in `timeZone` (without one: this computer's). */
export function startOfZonedDay(date: string, timeZone?: string): Date {
  const [y, m, dd] = date.split('-').map(Number) as [number, number, number];
  if (!timeZone) return new Date(y, m - 1, dd);
  const guess = Date.UTC(y, m - 1, dd);
  // the offset at midnight may differ from the offset at the guess (a DST change that night): settle twice
  let at = guess - zoneOffsetMinutes(new Date(guess), timeZone) * 60_000;
  at = guess - zoneOffsetMinutes(new Date(at), timeZone) * 60_000;
  return new Date(at);
}
