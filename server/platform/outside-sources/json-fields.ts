// Reading fields of an outside source's JSON answer without trusting its shape (the TV guide's
// shows, TMDB's films): an object, a non-blank string or an integer, else nothing.

export type RawObject = Record<string, unknown>;
export const isRawObject = (v: unknown): v is RawObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A string with something in it; null for anything else. */
export const textField = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
export const intField = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);
/** The body as JSON (throws on anything else: the fetch then counts as failed). */
export const jsonOf = (body: Buffer): unknown => JSON.parse(body.toString('utf8')) as unknown;
