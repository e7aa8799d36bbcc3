// Admin › Benchmarks (/api/admin/benchmarks): what this computer measured for the household's
// choices — chat tokens a second and time to the first word per installed chat model, seconds per
// image step, the data folder's disk read and write speed — and the events a run streams.
import { z } from 'zod';

export const ChatBenchmark = z.strictObject({
  model: z.string(),
  /** Ollama's own count: eval_count / eval_duration; null when the model failed. */
  tokensPerSecond: z.number().nullable(),
  /** About three words for every four tokens (English text). */
  wordsPerSecond: z.number().nullable(),
  /** From asking to the first piece of the answer, loading the model included (milliseconds). */
  firstTokenMs: z.number().nullable(),
  /** Why it could not be measured; null when it was. */
  error: z.string().nullable(),
});
export type ChatBenchmark = z.infer<typeof ChatBenchmark>;

export const ImageBenchmark = z.strictObject({
  secondsPerStep: z.number().nullable(),
  steps: z.number().int().nullable(),
  /** Why it was not measured (no image engine, not running) or failed; null when it was. */
  skipped: z.string().nullable(),
});
export type ImageBenchmark = z.infer<typeof ImageBenchmark>;

export const DiskBenchmark = z.strictObject({
  /** MB (10^6 bytes) a second, written with a flush to the disk at the end. */
  writeMBps: z.number().nullable(),
  /** Read back right after: the system's memory cache may make it look faster than the disk. */
  readMBps: z.number().nullable(),
  /** The size of the temporary file (removed after). */
  bytes: z.number().int(),
  error: z.string().nullable(),
});
export type DiskBenchmark = z.infer<typeof DiskBenchmark>;

export const BenchmarkResults = z.strictObject({
  startedAt: z.string(),
  finishedAt: z.string(),
  chat: z.array(ChatBenchmark),
  /** Why no chat model was measured (the model runtime down, none installed); null when some were. */
  chatSkipped: z.string().nullable(),
  image: ImageBenchmark,
  disk: DiskBenchmark,
});
export type BenchmarkResults = z.infer<typeof BenchmarkResults>;

/** GET /api/admin/benchmarks. */
export const BenchmarksResponse = z.strictObject({
  running: z.boolean(),
  /** The last finished run, kept across restarts; null before the first. */
  last: BenchmarkResults.nullable(),
});
export type BenchmarksResponse = z.infer<typeof BenchmarksResponse>;

export const RunResponse = z.strictObject({ running: z.literal(true), startedAt: z.string() });

export const BenchmarkPart = z.enum(['chat', 'image', 'disk']);
export type BenchmarkPart = z.infer<typeof BenchmarkPart>;

/** GET /api/admin/benchmarks/stream: start, progress lines, each part's result, then done (or error). */
export const BenchmarkEvents = {
  start: z.strictObject({ startedAt: z.string(), parts: z.array(BenchmarkPart) }),
  progress: z.strictObject({ part: BenchmarkPart, message: z.string() }),
  chat: ChatBenchmark,
  image: ImageBenchmark,
  disk: DiskBenchmark,
  done: BenchmarkResults,
  error: z.strictObject({ code: z.string(), message: z.string() }),
};
export type BenchmarkEvent = keyof typeof BenchmarkEvents;
