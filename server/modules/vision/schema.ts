// Vision (/api/vision): a photo looked at by the household's vision model, answered as JSON in the
// shape of a task's schema (or the caller's). Requests, responses and limits.
import { z } from 'zod';

export const VisionTask = z.enum(['describe', 'text', 'receipt', 'label', 'schema']);
export type VisionTask = z.infer<typeof VisionTask>;

/** The photo's size cap (what a phone camera sends, with room). */
export const MAX_VISION_IMAGE_BYTES = 15 * 1024 * 1024;
/** The caller's JSON schema (task `schema`), in bytes. */
export const MAX_SCHEMA_BYTES = 4 * 1024;
/** The longest side the vision model sees. */
export const VISION_LONG_SIDE = 1_568;

/** The form's text fields (the photo is its file part). */
export const AnalyzeFields = z.object({
  task: VisionTask,
  schema: z.string().optional(),
  /** "true" keeps the result for the member (GET/DELETE /api/vision/results/:id); otherwise nothing is kept. */
  store: z.enum(['true', 'false']).optional(),
});

/** A task's answer: a JSON object in the task's schema. */
export const VisionResult = z.record(z.string(), z.unknown());

export const AnalyzeResponse = z.object({
  task: VisionTask,
  /** The vision model that answered. */
  model: z.string(),
  result: VisionResult,
  /** What OCR read on this computer (text, receipt, label), or null. */
  ocrText: z.string().nullable(),
  /** The stored result's id when the caller asked to keep it, else null. */
  id: z.string().nullable(),
  /** Milliseconds spent preparing the picture, reading it with OCR, and waiting for the model. */
  timings: z.object({ resizeMs: z.number(), ocrMs: z.number(), modelMs: z.number() }),
});
export type AnalyzeResponse = z.infer<typeof AnalyzeResponse>;

export const StoredVisionResult = z.object({
  id: z.string(),
  task: VisionTask,
  model: z.string(),
  result: VisionResult,
  ocrText: z.string().nullable(),
  createdAt: z.string(),
});
export type StoredVisionResult = z.infer<typeof StoredVisionResult>;

export const StoredResultResponse = z.object({ result: StoredVisionResult });
export const StoredResultsResponse = z.object({ results: z.array(StoredVisionResult) });
export const ResultIdParams = z.object({ id: z.string().min(1).max(64) });

/** GET /api/vision/status: whether a photo can be analyzed now, and if not why, in a sentence. */
export const VisionStatusResponse = z.object({ model: z.string().nullable(), unavailable: z.string().nullable() });
export type VisionStatusResponse = z.infer<typeof VisionStatusResponse>;
