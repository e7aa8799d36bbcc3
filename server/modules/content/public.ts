// What other modules may use of the content module besides its schema and its service's type:
// comparing levels.
import { LEVELS, type Level } from './schema.js';

const rank = (l: Level) => LEVELS.indexOf(l);
/** The tighter of two levels. */
export const tighter = (a: Level, b: Level): Level => (rank(a) <= rank(b) ? a : b);
/** The ratings a member at `child` may see (films and TV). */
const CHILD_RATINGS = new Set(['G', 'PG', 'TV-Y', 'TV-Y7', 'TV-G', 'TV-PG']);
/** The ratings a member at `teen` may see: a child's and PG-13, TV-14. */
const TEEN_RATINGS = new Set([...CHILD_RATINGS, 'PG-13', 'TV-14']);

/** Whether a member at `level` may see a title with this rating (an unknown or missing rating counts as adult). */
export function ratingAllowed(level: Level, rating: string | null | undefined): boolean {
  if (level === 'adult') return true;
  const r = rating?.trim().toUpperCase() ?? '';
  return (level === 'teen' ? TEEN_RATINGS : CHILD_RATINGS).has(r);
}

/** Whether a member at `level` may see what is marked `needed`. */
export const allows = (level: Level, needed: Level): boolean => rank(level) >= rank(needed);
