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
import type { Artifact, EngineState } from './schema.js';
import type { BuiltGraph, Pipeline } from './workflow-graph.js';

// ---- the engine's protocol: the adapter's own types (adapters/image-engine/protocol.ts) -------
export type { EngineFileRef, EngineFrame, EngineRefusal, EngineSocket, EngineSystemStats, ImageEngineClient } from '../../adapters/image-engine/protocol.js';

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
  /** Another module's work on the engine (music) in the same fair queue, run alone when its turn comes (runner.ts). */
  lease?<T>(userId: string, work: () => Promise<T>, onWaiting?: (position: number) => void): Promise<T>;
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
