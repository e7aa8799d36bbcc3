// Requests and answers of the file converter (/api/converter): the presets on offer, a job's
// creation and its event stream, and the limits.
import { z } from 'zod';

/** Largest file a member may send to convert (a phone video of a few minutes; Tuning.converterMaxUploadBytes in tests). */
export const MAX_CONVERT_BYTES = 2_000_000_000;
/** How long a converted file is kept for its owner to download. */
export const CONVERTED_FILE_TTL_MS = 24 * 60 * 60_000;

export const PRESET_IDS = ['photo-jpeg', 'image-webp', 'video-mp4', 'audio-mp3', 'document-pdf', 'pdf-smaller', 'markdown-docx'] as const;
export const PresetId = z.enum(PRESET_IDS);
export type PresetId = z.infer<typeof PresetId>;

export const ToolName = z.enum(['ffmpeg', 'heif-convert', 'sharp', 'soffice', 'gs', 'pandoc']);
export type ToolName = z.infer<typeof ToolName>;

export const Preset = z.strictObject({
  id: PresetId,
  label: z.string(),
  description: z.string(),
  /** For the file picker's `accept`: extensions and MIME types the preset reads. */
  accept: z.string(),
  /** The extension of what it makes. */
  output: z.string(),
});
export type Preset = z.infer<typeof Preset>;

/** A preset left out because its program is not installed: what an admin can install. */
export const MissingTool = z.strictObject({ tool: ToolName, presets: z.array(z.string()), install: z.string() });

export const PresetsResponse = z.strictObject({
  presets: z.array(Preset),
  /** Only for admins: the presets not offered and the package that would add them. */
  missing: z.array(MissingTool),
  maxUploadBytes: z.number().int(),
});
export type PresetsResponse = z.infer<typeof PresetsResponse>;

export const JobCreatedResponse = z.strictObject({ jobId: z.string() });

export const JobIdParams = z.strictObject({ id: z.string().min(1).max(64) });

export const QueuedEvent = z.strictObject({ position: z.number().int().min(0) });
export const StartEvent = z.strictObject({ tool: ToolName });
export const ProgressEvent = z.strictObject({
  /** 0-100, or null for a tool that says nothing of its progress (then `elapsedSeconds` is all there is). */
  percent: z.number().min(0).max(100).nullable(),
  etaSeconds: z.number().min(0).nullable(),
  elapsedSeconds: z.number().min(0),
});
export const DoneEvent = z.strictObject({ fileId: z.string(), name: z.string(), mime: z.string(), bytes: z.number().int() });
export type DoneEvent = z.infer<typeof DoneEvent>;

/** GET /api/converter/jobs/:id/stream's events (plus `error {code, message}`). */
export const JobEvents = z.object({ queued: QueuedEvent, start: StartEvent, progress: ProgressEvent, done: DoneEvent });
export type JobEvents = z.infer<typeof JobEvents>;
