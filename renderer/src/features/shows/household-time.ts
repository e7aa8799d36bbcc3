// Air times as the household's clock reads them: Hearth answers each `airsAt` as ISO 8601 with the
// household's offset (its locale's time zone: "2026-12-03T21:00:00+01:00"), so the day and the time
// are read from the text itself, never converted to the browser's zone (a phone abroad still shows
// home time), and written in the member's locale (ui/locale.ts).
import { fmt } from '../../ui/locale';

/** The household's day of an air time: "2026-12-03". */
export const dayOf = (airsAt: string) => airsAt.slice(0, 10);

/** The household's clock time of an air time: "21:00" or "9:00 PM". */
export const timeOf = (airsAt: string) => fmt().wallTime(airsAt.slice(0, 16));

function offsetMinutes(airsAt: string): number {
  const m = /([+-])(\d\d):(\d\d)$/.exec(airsAt);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** Today's date at the household, read with the offset `airsAt` carries. */
export const householdToday = (airsAt: string, now = Date.now()) => new Date(now + offsetMinutes(airsAt) * 60_000).toISOString().slice(0, 10);

const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** "Today", "Tomorrow" or "Thursday 10 December 2026" in the member’s locale. */
export function dayLabel(day: string, today: string): string {
  if (day === today) return 'Today';
  if (day === plusDays(today, 1)) return 'Tomorrow';
  if (day === plusDays(today, -1)) return 'Yesterday';
  return fmt().day(day, 'long');
}

/** "Thu, 10 Dec 2026, 21:00" at the household. */
export function whenLabel(airsAt: string): string {
  const day = dayOf(airsAt);
  return `${fmt().day(day, 'weekday')}, ${fmt().day(day)}, ${timeOf(airsAt)}`;
}

/** "S2 E3", or "S2 special". */
export const episodeCode = (season: number, number: number | null) => (number === null ? `S${season} special` : `S${season} E${number}`);
