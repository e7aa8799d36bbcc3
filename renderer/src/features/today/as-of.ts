// "As of 07:40 (3 h ago)": when a source's copy was fetched, in words.
export function asOf(fetchedAt: string | null, ageSeconds: number | null): string {
  if (!fetchedAt || ageSeconds === null) return 'Not fetched yet';
  const time = new Date(fetchedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const ago = ageSeconds < 90 ? 'just now' : ageSeconds < 90 * 60 ? `${Math.round(ageSeconds / 60)} min ago` : ageSeconds < 36 * 3600 ? `${Math.round(ageSeconds / 3600)} h ago` : `${Math.round(ageSeconds / 86400)} days ago`;
  return `As of ${time} (${ago})`;
}

/** A forecast's local time ("2026-05-14T09:00") as an hour, without converting time zones. */
export const hourOf = (local: string) => local.slice(11, 16);

/** A forecast's day ("2026-05-14") as a short weekday. */
export const weekdayOf = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', timeZone: 'UTC' });

export const degrees = (n: number | null, unit = '°') => (n === null ? '–' : `${Math.round(n)}${unit.startsWith('°') ? '°' : ` ${unit}`}`);

/** "Riverside 2–1 Hill Rovers" after a match, "Hill Rovers vs Riverside · Sun 20:30" before. */
export function matchLine(m: { homeTeam: string; awayTeam: string; homeScore: number | null; awayScore: number | null; startsAt: string | null }): string {
  if (m.homeScore !== null && m.awayScore !== null) return `${m.homeTeam} ${m.homeScore}–${m.awayScore} ${m.awayTeam}`;
  const when = m.startsAt ? new Date(m.startsAt).toLocaleString(undefined, { weekday: 'short', hour: '2-digit', minute: '2-digit' }) : '';
  return `${m.homeTeam} vs ${m.awayTeam}${when ? ` · ${when}` : ''}`;
}
