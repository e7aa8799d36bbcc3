// Music: the requests, answers and stream events of /api/music, and their limits.
import { z } from 'zod';

/** Stable Audio Open makes at most 47 s in one piece; under 5 s is hardly music. */
export const MIN_SECONDS = 5;
export const MAX_SECONDS = 47;
export const MAX_PROMPT_CHARS = 500;
export const MAX_SEED = 2 ** 32 - 1;

export const GenerateMusicBody = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, 'Describe the music first.')
    .max(MAX_PROMPT_CHARS, `Describe the music in at most ${MAX_PROMPT_CHARS} characters.`),
  seconds: z.number().min(MIN_SECONDS, `A piece is at least ${MIN_SECONDS} seconds long.`).max(MAX_SECONDS, `A piece is at most ${MAX_SECONDS} seconds long.`),
  seed: z.number().int().min(0).max(MAX_SEED).optional(),
});
export type GenerateMusicBody = z.infer<typeof GenerateMusicBody>;

export const PieceIdParams = z.object({ id: z.string().min(1).max(64) });

export const Piece = z.object({
  id: z.string(),
  prompt: z.string(),
  seconds: z.number(),
  seed: z.number().int(),
  isAdult: z.boolean(),
  contentType: z.string(),
  bytes: z.number().int(),
  createdAt: z.string(),
  /** Where the audio is served (Range answered). */
  url: z.string(),
});
export type Piece = z.infer<typeof Piece>;

export const MusicHistoryResponse = z.object({
  pieces: z.array(Piece),
  /** Pieces left out because the session is not in the adult state. */
  hiddenByContent: z.number().int(),
});
export type MusicHistoryResponse = z.infer<typeof MusicHistoryResponse>;

/** GET /api/music/status: whether music can be made here, and if not, what an admin adds. */
export const MusicStatusResponse = z.object({
  available: z.boolean(),
  /** A sentence when not available (not set up, not running, a piece missing). */
  reason: z.string().nullable(),
  /** What an admin adds, one line each. */
  missing: z.array(z.string()),
});
export type MusicStatusResponse = z.infer<typeof MusicStatusResponse>;

/** The events of POST /api/music/generate. */
export const MusicEvents = z.object({
  start: z.object({ id: z.string(), seconds: z.number(), seed: z.number().int(), steps: z.number().int() }),
  /** Waiting for the engine behind other members' pictures and pieces: 1-based place. */
  queued: z.object({ id: z.string(), position: z.number().int() }),
  step: z.object({ id: z.string(), current: z.number().int(), total: z.number().int() }),
  done: z.object({ id: z.string(), piece: Piece }),
  error: z.object({ code: z.string(), message: z.string() }),
});
export type MusicEvents = z.infer<typeof MusicEvents>;
