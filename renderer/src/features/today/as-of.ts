// "As of 07:40 (3 h ago)": when a source's copy was fetched, in words; and the forecast's hours,
// days, degrees and matches, all in the member's locale (ui/locale.ts).
import { fmt } from '../../ui/locale';

export function asOf(fetchedAt: string | null, ageSeconds: number | null): string {
  if (!fetchedAt || ageSeconds === null) return 'Not fetched yet';
  const time = fmt().time(fetchedAt);
  const ago = ageSeconds < 90 ? 'just now' : ageSeconds < 90 * 60 ? `${Math.round(ageSeconds / 60)} min ago` : ageSeconds < 36 * 3600 ? `${Math.round(ageSeconds / 3600)} h ago` : `${Math.round(ageSeconds / 86400)} days ago`;
  return `As of ${time} (${ago})`;
}

/** A forecast's local time ("2026-05-14T09:00") as an hour, without converting time zones: 09:00 or 9:00 AM. */
export const hourOf = (local: string) => fmt().wallTime(local);

/** A forecast's day ("2026-05-14") as a short weekday. */
export const weekdayOf = (date: string) => fmt().day(date, 'weekday');

/** A temperature as the forecast gave it: "14°", or "14 °F" with `unit` and `withUnit`. */
export const degrees = (n: number | null, unit = '°', withUnit = false) => {
  if (n === null) return '–';
  const value = fmt().number(Math.round(n));
  if (!unit.startsWith('°')) return `${value} ${unit}`;
  return withUnit ? `${value} ${unit}` : `${value}°`;
};

/** "Riverside 2–1 Hill Rovers" after a match, "Hill Rovers vs Riverside · Sun 20:30" before. */
export function matchLine(m: { homeTeam: string; awayTeam: string; homeScore: number | null; awayScore: number | null; startsAt: string | null }): string {
  if (m.homeScore !== null && m.awayScore !== null) return `${m.homeTeam} ${m.homeScore}–${m.awayScore} ${m.awayTeam}`;
  const when = m.startsAt ? `${fmt().date(m.startsAt, 'weekday')} ${fmt().time(m.startsAt)}` : '';
  return `${m.homeTeam} vs ${m.awayTeam}${when ? ` · ${when}` : ''}`;
}
