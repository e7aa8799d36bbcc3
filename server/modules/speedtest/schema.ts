// Requests and answers of the LAN speed test (/api/speedtest, LibreSpeed's protocol) and its stored
// results (/api/admin/speedtest for the household's history).
import { z } from 'zod';

/** LibreSpeed's garbage: ckSize chunks of 1 MiB, at most 1024 (1 GiB) a request; its client asks for 100. */
export const MAX_GARBAGE_CHUNKS = 1024;
export const DEFAULT_GARBAGE_CHUNKS = 4;
/** One upload request's body (LibreSpeed's client sends 20 MB blobs, 4 MB on phones). */
export const MAX_EMPTY_BODY_BYTES = 256 * 1024 ** 2;
/** However fast or slow the link, one garbage answer stops after this long (the client measures 15-20 s). */
export const MAX_GARBAGE_SECONDS = 60;

export const GarbageQuery = z.object({
  ckSize: z.coerce
    .number({ error: 'ckSize is a number of 1 MiB chunks.' })
    .int('ckSize is a whole number of 1 MiB chunks.')
    .min(1, 'ckSize is at least 1.')
    .max(MAX_GARBAGE_CHUNKS, `ckSize is at most ${MAX_GARBAGE_CHUNKS} (1 GiB a request).`)
    .default(DEFAULT_GARBAGE_CHUNKS),
});

const Mbps = z.number().min(0).max(1_000_000);
const Ms = z.number().min(0).max(600_000);

export const SpeedtestResultBody = z.strictObject({
  downloadMbps: Mbps,
  uploadMbps: Mbps,
  pingMs: Ms,
  jitterMs: Ms,
  device: z.string().trim().min(1, 'Name the device the test ran on.').max(120, 'A device name is at most 120 characters.'),
});
export type SpeedtestResultBody = z.infer<typeof SpeedtestResultBody>;

export const SpeedtestResult = z.strictObject({
  id: z.string(),
  downloadMbps: z.number(),
  uploadMbps: z.number(),
  pingMs: z.number(),
  jitterMs: z.number(),
  device: z.string(),
  createdAt: z.string(),
});
export type SpeedtestResult = z.infer<typeof SpeedtestResult>;

export const SpeedtestResultResponse = z.strictObject({ result: SpeedtestResult });
export const SpeedtestResultsResponse = z.strictObject({ results: z.array(SpeedtestResult) });

export const HouseholdSpeedtestResult = SpeedtestResult.extend({ userId: z.string(), userName: z.string().nullable() });
export const AdminSpeedtestResponse = z.strictObject({ results: z.array(HouseholdSpeedtestResult) });
export type AdminSpeedtestResponse = z.infer<typeof AdminSpeedtestResponse>;

export const HistoryQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
