// Reading SQLite values into image generation's records (store.ts, loras-store.ts).
export type Row = Record<string, unknown>;

export const json = <T>(v: unknown, fallback: T): T => {
  if (typeof v !== 'string') return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
};
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
