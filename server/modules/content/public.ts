// What other modules may use of the content module besides its schema and its service's type:
// comparing levels.
import { LEVELS, type Level } from './schema.js';

const rank = (l: Level) => LEVELS.indexOf(l);
/** The tighter of two levels. */
export const tighter = (a: Level, b: Level): Level => (rank(a) <= rank(b) ? a : b);
/** Whether a member at `level` may see what is marked `needed`. */
export const allows = (level: Level, needed: Level): boolean => rank(level) >= rank(needed);
