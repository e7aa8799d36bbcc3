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

/** A UTC time as ISO with this computer's offset (the household's), e.g. 2026-10-04T20:30:00+02:00. */
export function withLocalOffset(d: Date): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  const abs = Math.abs(off);
  const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 19);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
