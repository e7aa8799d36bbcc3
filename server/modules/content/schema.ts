// The content module's requests and answers: each member's content dials (a level and, per area,
// a tighter setting), and the PIN-gated adult state of the caller's session.
import { z } from 'zod';

/** From tightest to loosest: the order areas are compared in. */
export const LEVELS = ['child', 'teen', 'adult'] as const;
export const Level = z.enum(LEVELS);
export type Level = z.infer<typeof Level>;

export const AREAS = ['chat', 'images', 'media', 'archives'] as const;
export type Area = (typeof AREAS)[number];

/** What each area is called in a sentence. */
export const AREA_NAMES: Record<Area, string> = { chat: 'Chat', images: 'Pictures', media: 'Media', archives: 'Archives' };

/** The adult state lasts this long after the PIN is given. */
export const ADULT_STATE_MS = 30 * 60_000;

/** The caller's effective dials: each area's level (never looser than `level`), and the adult state. */
export const ContentResponse = z.object({
  level: Level,
  chat: Level,
  images: Level,
  media: Level,
  archives: Level,
  adultState: z.boolean(),
});
export type ContentResponse = z.infer<typeof ContentResponse>;

/** One member's dials as an admin sets them: null for an area that follows the level. */
export const MemberDials = z.object({
  userId: z.string(),
  level: Level,
  chat: Level.nullable(),
  images: Level.nullable(),
  media: Level.nullable(),
  archives: Level.nullable(),
});
export type MemberDials = z.infer<typeof MemberDials>;

export const MemberParams = z.object({ userId: z.string().uuid() });

/** PUT /api/admin/content/members/:userId: an area left out (or null) follows the level. */
export const PutDialsBody = z
  .object({
    level: Level,
    chat: Level.nullable().optional(),
    images: Level.nullable().optional(),
    media: Level.nullable().optional(),
    archives: Level.nullable().optional(),
  })
  .strict();
export type PutDialsBody = z.infer<typeof PutDialsBody>;

export const AdultStateBody = z.object({ pin: z.string().max(64) }).strict();

export const PrivacyResponse = z.object({ adultState: z.boolean(), until: z.string().nullable() });
export type PrivacyResponse = z.infer<typeof PrivacyResponse>;

/** The image module's protections as they read from the dials (its old routes answer these). */
export interface ImageProtections {
  uncensoredImages: boolean;
  blockAdultLoras: boolean;
}
