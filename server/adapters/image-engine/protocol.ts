// The image engine's protocol as Hearth uses it: what adapters/image-engine/comfyui.ts offers and
// image generation (server/modules/image-gen) asks of it. Types only.
import type { NodeErrors, ObjectInfo } from './object-info.js';

/** One node of a prompt graph in the engine's API format (reference/comfyui/API.md §2). */
export interface ApiNode {
  class_type: string;
  inputs: Record<string, unknown>;
}

/** A prompt graph in the engine's API format. */
export type ApiGraph = Record<string, ApiNode>;

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
  | { type: 'executed'; promptId: string; node: string; output: { images?: EngineFileRef[]; gifs?: EngineFileRef[]; audio?: EngineFileRef[] } }
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
  /** GET /system_stats; throws when it does not answer (ImageEngineError 'unreachable', as a 503 through withImageEngineAppErrors). */
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
