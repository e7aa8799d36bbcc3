import { z } from 'zod';

export const MAX_CONCURRENT_JOBS = 4;
export const MAX_LARGE_JOBS = 1;
export const MAX_ATTEMPTS = 6;
export const LARGE_JOB_BYTES = 2 * 1024 ** 3;
export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_MAX_MS = 10 * 60_000;
export const STALL_TIMEOUT_MS = 60_000;
export const PROGRESS_WRITE_INTERVAL_MS = 1_000;
export const SETTING_QUEUE_PAUSED = 'downloads.paused';
/** The folders of DATA_DIR a queued download may write into (its destination's first segment). */
export const DOWNLOAD_FOLDERS = ['archives', 'maps', 'models', 'components', 'podcasts', 'vstream'] as const;

export const JobKind = z.enum(['archive', 'map', 'model', 'component', 'runtime_model', 'podcast', 'video']);
export type JobKind = z.infer<typeof JobKind>;

export const HostClass = z.enum(['model_runtime', 'model_hub', 'archive', 'maps', 'image_engine', 'code_host', 'local', 'podcast', 'media']);
export type HostClass = z.infer<typeof HostClass>;

export const JobState = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);
export type JobState = z.infer<typeof JobState>;

/** Priority classes, most urgent first (spec: archives, maps, models, components, runtime models). */
/** A cached video (the video hub's vstream) waits with the runtime models, behind everything the household set up. */
export const PRIORITY_BY_KIND: Record<JobKind, number> = { archive: 0, map: 1, model: 2, component: 3, runtime_model: 4, podcast: 3, video: 4 };

export const DownloadJob = z.object({
  id: z.string(),
  kind: JobKind,
  /** A URL, or a model name for the model runtime. */
  target: z.string(),
  /** Path relative to DATA_DIR (null for runtime models, which the runtime stores itself). */
  destination: z.string().nullable(),
  label: z.string(),
  /** The feature item that asked for this job, if any. */
  itemId: z.string().nullable(),
  expectedBytes: z.number().nullable(),
  sha256: z.string().nullable(),
  large: z.boolean(),
  hostClass: HostClass,
  priority: z.number().int(),
  position: z.number(),
  state: JobState,
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  bytesDone: z.number(),
  bytesTotal: z.number().nullable(),
  speedBps: z.number(),
  lastError: z.string().nullable(),
  /** Ids of jobs that must complete first. */
  requires: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type DownloadJob = z.infer<typeof DownloadJob>;

export const NewJob = z.object({
  kind: JobKind,
  target: z.string().min(1).max(2048),
  destination: z.string().min(1).max(1024).nullable().default(null),
  label: z.string().min(1).max(200),
  itemId: z.string().max(100).nullable().default(null),
  expectedBytes: z.number().int().nonnegative().nullable().default(null),
  sha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/i)
    .nullable()
    .default(null),
  hostClass: HostClass,
  requires: z.array(z.string()).default([]),
});
export type NewJob = z.input<typeof NewJob>;

export const JobIdParams = z.object({ id: z.string().min(1).max(64) });

export const JobProgress = DownloadJob.extend({ etaSeconds: z.number().nullable() });
export type JobProgress = z.infer<typeof JobProgress>;

export const JobsStatus = z.object({
  paused: z.boolean(),
  offline: z.boolean(),
  counts: z.record(JobState, z.number().int()),
  jobs: z.array(JobProgress),
});
export type JobsStatus = z.infer<typeof JobsStatus>;

export const EnqueueJobsBody = z.object({ jobs: z.array(NewJob).min(1).max(100) });
export const ReorderBody = z
  .strictObject({ priority: z.number().int().min(0).max(4).optional(), move: z.enum(['top', 'up', 'down', 'bottom']).optional() })
  .refine((b) => b.priority !== undefined || b.move !== undefined, 'Send a priority, a move, or both.');
export type ReorderBody = z.infer<typeof ReorderBody>;

export const JobResponse = z.object({ job: DownloadJob });
export type JobResponse = z.infer<typeof JobResponse>;
export const JobsResponse = z.object({ jobs: z.array(DownloadJob) });
export type JobsResponse = z.infer<typeof JobsResponse>;
export const RetriedResponse = z.object({ retried: z.number().int().nonnegative() });
export type RetriedResponse = z.infer<typeof RetriedResponse>;
export const PausedResponse = z.object({ paused: z.boolean() });
export type PausedResponse = z.infer<typeof PausedResponse>;
