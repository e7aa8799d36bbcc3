// The seams between image generation's parts, so each is built and tested on its own and the
// container wires them:
// - ImageEngineClient: the engine's protocol (adapters/image-engine/comfyui.ts speaks ComfyUI's
//   HTTP and WebSocket, reference/comfyui/API.md);
// - ImageEngineRuntime: the engine process (the sidecar supervisor, or an external engine at
//   IMAGE_ENGINE_URL), its state and its readiness;
// - ImageJobRunner: the household's one engine queue (runner.ts): one job on the engine at a
//   time, the rest waiting fairly (one per member in turn), events relayed, outputs stored;
// - ImageModelHelper: the models module's text and vision models for prompt help and preview-check.
import type { UserActor } from '../../actor.js';
import type { ApiGraph } from './graph-builder.js';
import type { ObjectInfo, NodeErrors } from './object-info.js';
import type { Artifact, EngineState } from './schema.js';
import type { BuiltGraph, Pipeline } from './workflow-graph.js';

// ---- the engine's protocol -------------------------------------------------------------------
export interface EngineSystemStats {
  comfyuiVersion: string | null;
  devices: { name: string; type: string; vramTotal: number; vramFree: number }[];
}

/** A decoded WebSocket frame (binary previews included). */
export type EngineFrame =
  | { type: 'status'; queueRemaining: number }
  | { type: 'execution_start'; promptId: string }
  | { type: 'execution_cached'; promptId: string; nodes: string[] }
  | { type: 'executing'; promptId: string; node: string | null }
  | { type: 'progress'; promptId: string; node: string; value: number; max: number }
  | { type: 'executed'; promptId: string; node: string; output: { images?: EngineFileRef[]; gifs?: EngineFileRef[] } }
  | { type: 'execution_success'; promptId: string }
  | { type: 'execution_error'; promptId: string; node: string | null; nodeType: string | null; exceptionType: string; message: string }
  | { type: 'execution_interrupted'; promptId: string }
  | { type: 'preview'; format: 'jpeg' | 'png'; bytes: Buffer };

export interface EngineFileRef {
  filename: string;
  subfolder: string;
  type: 'output' | 'temp' | 'input';
}

/** An open WebSocket to the engine for one client id. */
export interface EngineSocket {
  /** Each decoded frame; unknown frames are skipped. */
  onFrame(listener: (frame: EngineFrame) => void): void;
  /** The socket closed (engine stopped or crashed); `error` when it broke. */
  onClose(listener: (error: Error | null) => void): void;
  close(): void;
}

/** The engine refused a graph (POST /prompt 400): its node errors, already turned into a sentence. */
export interface EngineRefusal {
  message: string;
  nodeErrors: NodeErrors;
  /** The node class the engine does not have (a missing custom node pack: the runtime restarts), or null. */
  missingClass?: string | null;
}

export interface ImageEngineClient {
  /** GET /system_stats; throws EngineUnreachableError when it does not answer. */
  systemStats(signal?: AbortSignal): Promise<EngineSystemStats>;
  /** GET /object_info, read into an ObjectInfo (cached until `forget()`). */
  objectInfo(signal?: AbortSignal): Promise<ObjectInfo>;
  forget(): void;
  /** Opens the WebSocket for `clientId` and resolves once it is open (before any POST /prompt). */
  connect(clientId: string, signal?: AbortSignal): Promise<EngineSocket>;
  /** POST /prompt; a refused graph is `{refused}` (never thrown), a broken connection throws. */
  submit(graph: ApiGraph, clientId: string, signal?: AbortSignal): Promise<{ promptId: string } | { refused: EngineRefusal }>;
  /** GET /queue: the prompt ids running and pending. */
  queue(signal?: AbortSignal): Promise<{ running: string[]; pending: string[] }>;
  /** POST /queue {delete}. */
  deleteQueued(promptIds: string[]): Promise<void>;
  /** POST /interrupt (the running prompt, or only `promptId` when the engine supports it). */
  interrupt(promptId?: string): Promise<void>;
  /** POST /upload/image into the input folder; answers the name to use in LoadImage. */
  uploadImage(bytes: Buffer, fileName: string, signal?: AbortSignal): Promise<{ name: string }>;
  /** GET /view: one output file's bytes. */
  view(ref: EngineFileRef, signal?: AbortSignal): Promise<Buffer>;
}

// ---- the engine process ----------------------------------------------------------------------
export interface EngineRuntimeStatus {
  state: EngineState;
  /** A sentence when failed or not set up, with the way to fix it. */
  error: string | null;
  /** An engine folder is set up, or IMAGE_ENGINE_URL is set. */
  configured: boolean;
  /** IMAGE_ENGINE_URL: used as is, never spawned. */
  external: boolean;
  since: string;
  /** While installing: what Hearth is doing now, as a sentence ("Installing what ComfyUI needs (1 of 3)…"). */
  progress?: string | null;
}

export interface ImageEngineRuntime {
  status(): EngineRuntimeStatus;
  /** Starts the engine if it is idle or failed and configured (never awaits readiness). */
  ensureStarted(): void;
  /** Resolves when ready; throws ServiceUnavailableError (503 image_engine_unavailable) with a sentence when not configured, failed or past the deadline. */
  whenReady(signal?: AbortSignal): Promise<void>;
  /** A broken pipe, a missing custom node, a new folder or an admin's retry: stop and start again (an install under way starts over). Resolves once the engine is ready or failed, or once its Python environment is being installed. */
  restart(reason: string): Promise<void>;
  /** The newest lines of the engine's own log (kept and rotated on disk). */
  logTail(lines: number): Promise<string[]>;
  stop(): Promise<void>;
}

// ---- the household's engine queue ------------------------------------------------------------
/** What a running job tells its listeners (the routes turn these into the SSE events of schema.ts). */
export type JobEvent =
  | { type: 'step'; current: number; total: number; position: number | null }
  | { type: 'preview'; jpeg: Buffer; step: number }
  | { type: 'done'; artifact: Artifact }
  | { type: 'error'; code: string; message: string };

export interface EngineJob {
  /** The generated_images row, already inserted as queued. */
  id: string;
  userId: string;
  pipeline: Exclude<Pipeline, 'auto_color' | 'adjust'>;
  /** Builds the graph once the job's inputs are uploaded (`uploaded` maps each input's key to its engine name). */
  build(uploaded: Record<string, string>): BuiltGraph;
  /** Pictures to upload into the engine's input folder first (edit sources, reference faces), by key. */
  inputs: Record<string, { path: string; fileName: string }>;
}

export interface ImageJobRunner {
  /** Queues the job (fair: one per member in turn); events reach `subscribe`rs until done or error. */
  enqueue(job: EngineJob): void;
  /** Past step and the latest preview are replayed, then live events; returns unsubscribe. Null when the job is not running or queued. */
  subscribe(id: string, listener: (e: JobEvent) => void): (() => void) | null;
  /** Queue delete plus interrupt; the row becomes cancelled. False when the job is not queued or running. */
  cancel(id: string): Promise<boolean>;
  /** 1-based place among waiting jobs, 0 when on the engine, null when not queued. */
  position(id: string): number | null;
  /** The latest preview frame of a running job (preview-check), or null. */
  latestPreview(id: string): Buffer | null;
  counts(): { running: number; waiting: number };
  /** Cancels everything (server close). */
  stop(): Promise<void>;
}

/** What the runner writes into a generated_images row (the service's store implements it). */
export interface ImageJobRowPatch {
  state?: 'queued' | 'building' | 'ready' | 'cancelled' | 'failed';
  stepCurrent?: number;
  stepTotal?: number;
  /** Relative to DATA_DIR/images: `<userId>/<id>.png` or `.webp`. */
  outputPath?: string;
  contentType?: string;
  width?: number;
  height?: number;
  bytes?: number;
  error?: string | null;
  startedAt?: string;
  finishedAt?: string;
}

export interface ImageJobRows {
  update(id: string, patch: ImageJobRowPatch): Promise<void>;
  /** The row as the member sees it (for the `done` event). */
  artifact(id: string): Promise<Artifact | null>;
}

// ---- models ----------------------------------------------------------------------------------
export interface ImageModelHelper {
  /** The household chat model this member may use; throws 503 model_runtime_unavailable / 409 no_chat_model. */
  textModel(actor: UserActor): Promise<string>;
  /** An installed model that can see pictures, or null. */
  visionModel(): Promise<string | null>;
}
