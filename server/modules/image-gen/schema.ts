// Image generation's contract (/api/image, /api/admin/image-loras, /api/admin/image-engine): each
// member's private pictures (generated and edited), the engine's state and what each pipeline
// needs, the household's LoRAs with per-member grants (default deny) and each member's image
// protections, set by an admin only. The web app imports these types.
import { z } from 'zod';
import { PIPELINES } from './workflow-graph.js';
import { STYLES } from './prompt.js';
import { FAST_MODE_STEPS, GUIDANCE_MAX, GUIDANCE_MIN, SIDE_MAX_PX, SIDE_MIN_PX, STEPS_MAX } from './presets.js';

// ---- limits ----------------------------------------------------------------------------------
export const MAX_PROMPT_CHARS = 1_000;
/** One uploaded picture (edit source, reference face). */
export const MAX_IMAGE_UPLOAD_BYTES = 25 * 1024 * 1024;
/** One imported LoRA file (.safetensors only), streamed to disk. */
export const MAX_LORA_BYTES = 2 * 1024 * 1024 * 1024;
/** LoRAs one job may use. */
export const MAX_JOB_LORAS = 3;
/** Jobs one member may have waiting or running at once (fairness: the queue takes one per member in turn). */
export const MAX_JOBS_PER_MEMBER = 3;
/** Jobs waiting for the engine in the whole household. */
export const MAX_QUEUED_JOBS = 20;
export const HISTORY_PAGE = 48;
export const HISTORY_PAGE_MAX = 200;
/** The runner's stall timer and queue poll (spec Limits). */
export const STALL_MS = 30_000;
export const STALL_VIDEO_MS = 20 * 60_000;
export const QUEUE_POLL_MS = 5_000;
/** The engine's start-up deadline (health poll of /system_stats). */
export const ENGINE_READY_DEADLINE_MS = 3 * 60_000;
export const ENGINE_PORT = 8188;
export { FAST_MODE_STEPS, GUIDANCE_MAX, GUIDANCE_MIN, SIDE_MAX_PX, SIDE_MIN_PX, STEPS_MAX };

// ---- enums -----------------------------------------------------------------------------------
export const Pipeline = z.enum(PIPELINES);
export type Pipeline = z.infer<typeof Pipeline>;
/** The pipelines POST /generate runs. */
export const GeneratePipeline = z.enum(['txt2img', 'face_id', 'video', 'i2v']);
export type GeneratePipeline = z.infer<typeof GeneratePipeline>;
/** POST /edit's `op` field (EDIT_OPS maps each to its pipeline). */
export const EditOp = z.enum(['remove-bg', 'bg-blur', 'upscale', 'enhance', 'auto-color', 'adjust', 'face-restore', 'photo-restore']);
export type EditOp = z.infer<typeof EditOp>;
export const Style = z.enum(STYLES);
export type Style = z.infer<typeof Style>;
export const Orientation = z.enum(['portrait', 'landscape', 'square']);
export const ArtifactKind = z.enum(['generated', 'edited']);
export type ArtifactKind = z.infer<typeof ArtifactKind>;
/** queued: waiting for the engine (its position shown); building: on the engine; failed keeps a sentence. */
export const ArtifactState = z.enum(['queued', 'building', 'ready', 'cancelled', 'failed']);
export type ArtifactState = z.infer<typeof ArtifactState>;
export const EngineState = z.enum(['idle', 'installing', 'warming', 'ready', 'failed']);
export type EngineState = z.infer<typeof EngineState>;
export const GrantState = z.enum(['on', 'off']);
export type GrantState = z.infer<typeof GrantState>;
export const BaseFamily = z.enum(['sd15', 'sd2', 'sdxl', 'sd3', 'flux']);

// ---- status ----------------------------------------------------------------------------------
export const PipelineAvailability = z.object({
  pipeline: Pipeline,
  available: z.boolean(),
  /** Why not, as a sentence a person reads ("Face matching needs the IPAdapter plus node pack."), or null. */
  reason: z.string().nullable(),
  /** What an admin installs to fix it (node classes, pack names or model files). */
  missing: z.array(z.string()),
});
export type PipelineAvailability = z.infer<typeof PipelineAvailability>;

export const ImageStatusResponse = z.object({
  state: EngineState,
  /** A sentence when failed or not set up, with the way to fix it. */
  error: z.string().nullable(),
  /** An engine folder is set up, or IMAGE_ENGINE_URL points at a running engine. */
  configured: z.boolean(),
  /** The checkpoint in app setting image_model, or null when none is chosen. */
  checkpoint: z.string().nullable(),
  /** While installing: what Hearth is doing now, as a sentence; null otherwise. */
  progress: z.string().nullable(),
  pipelines: z.array(PipelineAvailability),
  queue: z.object({ running: z.number().int(), waiting: z.number().int() }),
});
export type ImageStatusResponse = z.infer<typeof ImageStatusResponse>;

// ---- artifacts -------------------------------------------------------------------------------
export const UsedLora = z.object({ id: z.string(), name: z.string(), weight: z.number() });
export const UsedSettings = z.object({ width: z.number().int(), height: z.number().int(), steps: z.number().int(), guidance: z.number() });
export type UsedSettings = z.infer<typeof UsedSettings>;
export const Artifact = z.object({
  id: z.string(),
  kind: ArtifactKind,
  pipeline: Pipeline,
  state: ArtifactState,
  stepCurrent: z.number().int(),
  stepTotal: z.number().int(),
  /** 1-based place in the household's queue while queued, else null. */
  position: z.number().int().nullable(),
  isAdult: z.boolean(),
  prompt: z.string(),
  style: Style.nullable(),
  loras: z.array(UsedLora),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** What a generation runs with after the clamps (the size asked of the engine, steps, guidance); null for edits and older rows. */
  used: UsedSettings.nullable(),
  contentType: z.string().nullable(),
  /** GET /api/image/artifacts/:id (the picture once ready). */
  url: z.string(),
  error: z.string().nullable(),
  sourceId: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Artifact = z.infer<typeof Artifact>;

export const ArtifactIdParams = z.object({ id: z.string().min(1).max(64) });
export const HistoryQuery = z.object({
  kind: ArtifactKind.optional(),
  limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(HISTORY_PAGE),
  offset: z.coerce.number().int().min(0).default(0),
});
/**
 * hiddenByContent: how many of the member's own finished pictures (of this kind) are left out because
 * they are adult and the adult state is off; 0 while it is on. The page says "Some pictures are
 * hidden by your content settings" when it is above 0.
 */
export const HistoryResponse = z.object({ items: z.array(Artifact), total: z.number().int(), nextOffset: z.number().int().nullable(), hiddenByContent: z.number().int().min(0) });
export type HistoryResponse = z.infer<typeof HistoryResponse>;
export const BuildingResponse = z.object({ artifact: Artifact.nullable() });
export const ArtifactResponse = z.object({ artifact: Artifact });

// ---- generate and edit -----------------------------------------------------------------------
export const GenerateBody = z.object({
  pipeline: GeneratePipeline.default('txt2img'),
  prompt: z.string().trim().min(1).max(MAX_PROMPT_CHARS),
  /** null/absent: detected from the prompt. */
  style: Style.nullish(),
  /** absent: inferred from the prompt (portrait or landscape words), else square. */
  orientation: Orientation.nullish(),
  /** Pixels, clamped to SIDE_MIN_PX–SIDE_MAX_PX and snapped to the engine's step (spec Limits): a number out of range still makes a picture. */
  width: z.number().finite().optional(),
  height: z.number().finite().optional(),
  /** Clamped to 1–STEPS_MAX (a distilled checkpoint runs its own). */
  steps: z.number().finite().optional(),
  /** Clamped to GUIDANCE_MIN–GUIDANCE_MAX. */
  guidance: z.number().finite().optional(),
  seed: z.number().int().min(0).optional(),
  fast: z.boolean().default(false),
  /** Explicit LoRAs (filtered to the member's allowed ones whose files exist); absent = automatic routing among the member's granted LoRAs. */
  loraIds: z.array(z.string().min(1).max(64)).max(MAX_JOB_LORAS).optional(),
  loraWeights: z.record(z.string(), z.number().min(-5).max(5)).optional(),
  /** face_id: a refId from POST /reference-face. */
  refId: z.string().min(1).max(64).optional(),
  /** i2v: one of the member's ready pictures. */
  sourceId: z.string().min(1).max(64).optional(),
  /** video: frames (clamped). */
  frames: z.number().int().min(8).max(81).optional(),
});
export type GenerateBody = z.infer<typeof GenerateBody>;

/** POST /edit's fields besides the file (multipart): `op`, or `sourceId` instead of a file, and the op's options. */
export const EditFields = z.object({
  op: EditOp,
  sourceId: z.string().min(1).max(64).optional(),
  /** upscale: 2 or 4. */
  scale: z.coerce.number().int().min(2).max(4).optional(),
  /** bg-blur: 1–100. */
  blur: z.coerce.number().min(1).max(100).optional(),
  /** enhance / photo-restore strength 0–1. */
  strength: z.coerce.number().min(0).max(1).optional(),
  /** adjust: -100..100 each, 0 = unchanged. */
  brightness: z.coerce.number().min(-100).max(100).optional(),
  contrast: z.coerce.number().min(-100).max(100).optional(),
  saturation: z.coerce.number().min(-100).max(100).optional(),
  warmth: z.coerce.number().min(-100).max(100).optional(),
  sharpness: z.coerce.number().min(0).max(100).optional(),
  rotate: z.coerce.number().int().refine((n) => [0, 90, 180, 270].includes(n), 'rotate is 0, 90, 180 or 270').optional(),
  prompt: z.string().trim().max(MAX_PROMPT_CHARS).optional(),
});
export type EditFields = z.infer<typeof EditFields>;

/** The SSE events of POST /generate, POST /edit and GET /artifacts/:id/stream. */
export const ImageEvents = {
  /** Once, first: the artifact as queued, with isAdult computed at enqueue. */
  start: z.object({ id: z.string(), isAdult: z.boolean(), position: z.number().int().nullable(), artifact: Artifact }),
  /** Queue position while waiting (current 0), then sampler steps. */
  step: z.object({ id: z.string(), current: z.number().int(), total: z.number().int(), position: z.number().int().nullable() }),
  /** A JPEG preview frame while sampling, base64 (no data: prefix). */
  preview: z.object({ id: z.string(), jpeg: z.string(), step: z.number().int() }),
  done: z.object({ id: z.string(), artifact: Artifact }),
  error: z.object({ code: z.string(), message: z.string() }).loose(),
} as const;

export const ReferenceFaceResponse = z.object({ refId: z.string() });

export const EnhancePromptBody = z.object({ prompt: z.string().trim().min(1).max(MAX_PROMPT_CHARS) });
export const EnhancePromptResponse = z.object({ prompt: z.string(), changed: z.boolean() });
export const AutoEnhanceBody = z.object({ prompt: z.string().trim().min(1).max(MAX_PROMPT_CHARS), loraIds: z.array(z.string()).max(MAX_JOB_LORAS).optional() });
export const AutoEnhanceResponse = z.object({ prompt: z.string(), loraWeights: z.record(z.string(), z.number()) });
/** preview-check: the vision model looks at the running job's latest preview frame. */
export const PreviewCheckBody = z.object({ id: z.string().min(1).max(64) });
export const PreviewCheckResponse = z.object({
  match: z.boolean(),
  /** What the model saw, in a few words. */
  seen: z.string().nullable(),
  correctedPrompt: z.string().nullable(),
  loraWeights: z.record(z.string(), z.number()).nullable(),
});

// ---- LoRAs -----------------------------------------------------------------------------------
export const LoraCategoryRef = z.object({ id: z.string(), name: z.string() });
/** A LoRA as a member sees it (GET /api/image/loras: only the ones they may use). */
export const MemberLora = z.object({
  id: z.string(),
  name: z.string(),
  triggerTokens: z.array(z.string()),
  defaultWeight: z.number(),
  minWeight: z.number(),
  maxWeight: z.number(),
  styleLabel: z.string().nullable(),
  isStylistic: z.boolean(),
  isAdult: z.boolean(),
  whenToUse: z.string().nullable(),
  category: LoraCategoryRef.nullable(),
});
export type MemberLora = z.infer<typeof MemberLora>;
export const MemberLorasResponse = z.object({ loras: z.array(MemberLora) });

export const AdminLora = MemberLora.extend({
  filePath: z.string(),
  fileBytes: z.number().int().nullable(),
  /** The file is in the engine's loras folder (a missing file makes the LoRA unusable). */
  fileExists: z.boolean(),
  enabled: z.boolean(),
  exampleRequests: z.array(z.string()),
  externalId: z.string().nullable(),
  baseFamilies: z.array(BaseFamily),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminLora = z.infer<typeof AdminLora>;
export const AdminLorasResponse = z.object({ loras: z.array(AdminLora), categories: z.array(z.lazy(() => LoraCategory)) });
export const AdminLoraResponse = z.object({ lora: AdminLora });
/** POST /api/admin/image-loras/recover-disk: the files found in the loras folder without a row, now registered. */
export const RecoverDiskResponse = z.object({ registered: z.array(AdminLora) });
const Id = z.string().min(1).max(64);
export const LoraIdParams = z.object({ id: Id });
export const MemberParams = z.object({ userId: Id });
/** PUT .../:id/grants/:userId and .../categories/:id/grants/:userId. */
export const GrantParams = z.object({ id: Id, userId: Id });

const Weight = z.number().min(-5).max(5);
export const LoraPatchBody = z
  .object({
    name: z.string().trim().min(1).max(120),
    triggerTokens: z.array(z.string().trim().min(1).max(80)).max(20),
    defaultWeight: Weight,
    minWeight: Weight,
    maxWeight: Weight,
    categoryId: z.string().max(64).nullable(),
    styleLabel: z.string().trim().max(80).nullable(),
    isStylistic: z.boolean(),
    isAdult: z.boolean(),
    enabled: z.boolean(),
    whenToUse: z.string().trim().max(500).nullable(),
    exampleRequests: z.array(z.string().trim().min(1).max(200)).max(20),
    baseFamilies: z.array(BaseFamily).max(5),
  })
  .partial()
  .strict();
export type LoraPatchBody = z.infer<typeof LoraPatchBody>;

export const LoraCategory = z.object({ id: z.string(), name: z.string(), sortOrder: z.number().int(), enabled: z.boolean(), loraCount: z.number().int(), hasAdult: z.boolean() });
export type LoraCategory = z.infer<typeof LoraCategory>;
export const CategoryBody = z.object({ name: z.string().trim().min(1).max(80), sortOrder: z.number().int().min(0).max(10_000).optional(), enabled: z.boolean().optional() }).strict();
export const CategoryPatchBody = CategoryBody.partial().strict();
export const CategoryResponse = z.object({ category: LoraCategory });

/** One member's grants and protections (GET /api/admin/image-loras/members/:userId). */
export const MemberGrants = z.object({
  userId: z.string(),
  loras: z.array(z.object({ loraId: z.string(), state: GrantState })),
  categories: z.array(z.object({ categoryId: z.string(), state: GrantState })),
  protections: z.lazy(() => Protections),
});
export type MemberGrants = z.infer<typeof MemberGrants>;
/** PUT .../loras/:id/grants/:userId and .../categories/:id/grants/:userId; null removes the grant (back to default deny). */
export const GrantBody = z.object({ state: GrantState.nullable() }).strict();

export const Protections = z.object({
  /** false: the safety prefix is added to every prompt (the default). */
  uncensoredImages: z.boolean(),
  /** true: adult LoRAs cannot be granted to this member (409 adult_lora_blocked); the default. */
  blockAdultLoras: z.boolean(),
});
export type Protections = z.infer<typeof Protections>;
export const ProtectionsPatchBody = Protections.partial().strict();

export const HubSearchBody = z.object({ query: z.string().trim().min(1).max(200), baseFamily: BaseFamily.optional() }).strict();
export const HubResult = z.object({
  externalId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  baseFamily: BaseFamily.nullable(),
  triggerWords: z.array(z.string()),
  fileName: z.string(),
  bytes: z.number().int().nullable(),
  isAdult: z.boolean(),
  /** Already imported as this LoRA id. */
  importedAs: z.string().nullable(),
});
export const HubSearchResponse = z.object({ results: z.array(HubResult) });
export const HubImportBody = z.object({ externalId: z.string().min(1).max(64) }).strict();
/**
 * The SSE events of POST /civitai-import: progress while the durable download queue fetches the
 * file (waiting for its turn, downloading, or retrying after a dropped connection, resuming where
 * it stopped), then done with the registered LoRA, or error.
 */
export const HubImportEvents = {
  progress: z.object({
    state: z.enum(['waiting', 'downloading', 'retrying']),
    bytesDone: z.number().int().nonnegative(),
    bytesTotal: z.number().int().nonnegative().nullable(),
    /** While retrying: why the last attempt stopped, as a sentence. */
    message: z.string().nullable(),
  }),
  done: z.object({ lora: AdminLora }),
  error: z.object({ code: z.string(), message: z.string() }).loose(),
} as const;
/** The hub API key is kept server-side: GET answers whether one is set, never the key. */
export const HubKeyResponse = z.object({ set: z.boolean() });
export const HubKeyBody = z.object({ key: z.string().trim().min(8).max(200) }).strict();

// ---- engine admin (/api/admin/image-engine) --------------------------------------------------
export const EngineConfig = z.object({
  /** The ComfyUI folder on this computer (holds main.py), or null. */
  installDir: z.string().nullable(),
  /** The Python that runs it (a venv's python), or null for the folder's venv. */
  python: z.string().nullable(),
  /** Set by IMAGE_ENGINE_URL: Hearth uses that engine and does not spawn one (read-only here). */
  externalUrl: z.string().nullable(),
  checkpoint: z.string().nullable(),
  /** Checkpoints the engine offers (from its node list), when it is running. */
  checkpoints: z.array(z.string()),
});
export const EngineConfigBody = z.object({ installDir: z.string().trim().min(1).max(1000).nullable(), python: z.string().trim().min(1).max(1000).nullable(), checkpoint: z.string().trim().min(1).max(300).nullable() }).partial().strict();
/** A part of the engine the Image engine feature (Admin › Features) downloaded: an archive Hearth keeps but does not unpack. */
export const EngineDownload = z.object({ label: z.string(), path: z.string() });
export const EngineAdminResponse = z.object({
  config: EngineConfig,
  status: ImageStatusResponse,
  launch: z.object({ target: z.string(), dtype: z.string(), args: z.array(z.string()), note: z.string().nullable() }).nullable(),
  /** What the Image engine feature downloaded and where (empty when it has not been added). */
  downloaded: z.array(EngineDownload),
});
export type EngineAdminResponse = z.infer<typeof EngineAdminResponse>;
export const EngineLogsResponse = z.object({ lines: z.array(z.string()) });
export const EngineLogsQuery = z.object({ lines: z.coerce.number().int().min(1).max(2_000).default(200) });
