// Air times as the household's clock reads them: Hearth answers each `airsAt` as ISO 8601 with the
// household computer's offset ("2026-12-03T21:00:00+01:00"), so the day and the time are read from
// the text itself, never converted to the browser's zone (a phone abroad still shows home time).

/** The household's day of an air time: "2026-12-03". */
export const dayOf = (airsAt: string) => airsAt.slice(0, 10);

/** The household's clock time of an air time: "21:00". */
export const timeOf = (airsAt: string) => airsAt.slice(11, 16);

function offsetMinutes(airsAt: string): number {
  const m = /([+-])(\d\d):(\d\d)$/.exec(airsAt);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** Today's date at the household, read with the offset `airsAt` carries. */
export const householdToday = (airsAt: string, now = Date.now()) => new Date(now + offsetMinutes(airsAt) * 60_000).toISOString().slice(0, 10);

const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** "Today", "Tomorrow" or "Thursday 10 December" (with the year when it is not this one). */
export function dayLabel(day: string, today: string): string {
  if (day === today) return 'Today';
  if (day === plusDays(today, 1)) return 'Tomorrow';
  if (day === plusDays(today, -1)) return 'Yesterday';
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC', ...(day.slice(0, 4) === today.slice(0, 4) ? {} : { year: 'numeric' }) });
}

/** "Thu 10 Dec 2026, 21:00" at the household. */
export function whenLabel(airsAt: string): string {
  const date = new Date(`${dayOf(airsAt)}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `${date}, ${timeOf(airsAt)}`;
}

/** "S2 E3", or "S2 special". */
export const episodeCode = (season: number, number: number | null) => (number === null ? `S${season} special` : `S${season} E${number}`);
