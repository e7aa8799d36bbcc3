// The admin Storage page's requests and answers (issue 39): what each area of the data folder holds,
// the disk's free space, the 30-day trend, and the safe clean-ups.
import { z } from 'zod';

/** How many days of daily snapshots the trend shows. */
export const TREND_DAYS = 30;
/** Below this share of the disk free, the admins are warned. */
export const LOW_SPACE_RATIO = 0.1;
/** Most paths a confirmed clean-up may name. */
export const MAX_CLEANUP_PATHS = 10_000;

export const StorageArea = z.object({ key: z.string(), label: z.string(), bytes: z.number().int().nonnegative(), files: z.number().int().nonnegative() }).strict();
export type StorageArea = z.infer<typeof StorageArea>;

export const TrendPoint = z.object({ day: z.string(), usedBytes: z.number().int().nonnegative() }).strict();
export type TrendPoint = z.infer<typeof TrendPoint>;

export const StorageResponse = z
  .object({
    areas: z.array(StorageArea),
    /** null when the disk's numbers cannot be read. */
    freeBytes: z.number().int().nonnegative().nullable(),
    totalBytes: z.number().int().nonnegative().nullable(),
    trend: z.array(TrendPoint),
  })
  .strict();
export type StorageResponse = z.infer<typeof StorageResponse>;

export const CleanupBody = z
  .object({
    dryRun: z.boolean({ error: 'dryRun is true (list what would go) or false (remove it).' }),
    /** The dry run's paths the admin confirmed: only these go (those no longer safe to remove are left). Without it, everything safe goes. */
    paths: z.array(z.string().max(4096)).max(MAX_CLEANUP_PATHS, `At most ${MAX_CLEANUP_PATHS} paths at once.`).optional(),
  })
  .strict();
export type CleanupBody = z.infer<typeof CleanupBody>;

export const CleanupReason = z.enum(['expired_cache', 'failed_download', 'expired_conversion', 'orphaned_file', 'temporary_file']);
export type CleanupReason = z.infer<typeof CleanupReason>;

export const CleanupItem = z
  .object({
    area: z.string(),
    /** Relative to the data folder, with forward slashes. */
    path: z.string(),
    bytes: z.number().int().nonnegative(),
    reason: CleanupReason,
  })
  .strict();
export type CleanupItem = z.infer<typeof CleanupItem>;

export const CleanupResponse = z.object({ items: z.array(CleanupItem), bytes: z.number().int().nonnegative(), dryRun: z.boolean() }).strict();
export type CleanupResponse = z.infer<typeof CleanupResponse>;
