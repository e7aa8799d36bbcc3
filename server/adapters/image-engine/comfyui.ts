// The image engine (ComfyUI 0.3.64) over HTTP and WebSocket, reference/comfyui/API.md. The base
// URL is the engine on loopback (127.0.0.1:8188, or IMAGE_ENGINE_URL), set by the household's own
// configuration and never by a request, so it is fetched directly as the model runtime's is
// (adapters/model-runtime/ollama.ts), not through the SSRF guard, which refuses loopback. Every
// answer is untrusted and parsed with zod; a connection that fails or times out is an
// ImageEngineError 'unreachable', an answer that is not the engine's one 'bad_response', and a
// refused graph (400 with node_errors) comes back as one sentence a person can read.
import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import { z } from 'zod';
import { lazyRequire, undici } from '../../platform/lazy.js';
import { readObjectInfo, type NodeErrors, type ObjectInfo, type PromptErrorReason } from './object-info.js';
import type { ApiGraph, EngineFileRef, EngineFrame, EngineRefusal, EngineSocket, EngineSystemStats, ImageEngineClient } from './protocol.js';

/** ws, required at the first connection to the engine (not at start). */
const loadWs = lazyRequire<typeof WebSocket>('ws');

export type ImageEngineFailure = 'unreachable' | 'bad_response';

/**
 * Every failure of the engine: `unreachable` (no connection, a dropped one, a time-out: it may still
 * be starting) or `bad_response` (an answer that is not the engine's; the message says which).
 * server/adapter-errors/image-engine.ts turns it into the one answer for each kind.
 */
export class ImageEngineError extends Error {
  constructor(
    readonly failure: ImageEngineFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ImageEngineError';
  }
}

const unreachable = () => new ImageEngineError('unreachable', 'The picture engine did not answer.');
const badAnswer = (what: string) => new ImageEngineError('bad_response', `The picture engine gave an answer Hearth could not read (${what}).`);

export interface ComfyUiClientOptions {
  baseUrl: string;
  /** Time-out of one short request (stats, queue, submit, interrupt); default 10 s. */
  timeoutMs?: number;
  /** Time-out of an upload or an output download; default 60 s. */
  transferTimeoutMs?: number;
}

const SystemStats = z.object({
  system: z.object({ comfyui_version: z.string().optional() }).passthrough(),
  devices: z.array(z.object({ name: z.string(), type: z.string(), vram_total: z.number().optional(), vram_free: z.number().optional() }).passthrough()),
});
const Reason = z.object({ type: z.string(), message: z.string(), details: z.string().default(''), extra_info: z.record(z.string(), z.unknown()).default({}) });
const NodeErrorsSchema = z.record(z.string(), z.object({ errors: z.array(Reason), dependent_outputs: z.array(z.string()).default([]), class_type: z.string() }));
const PromptOk = z.object({ prompt_id: z.string(), number: z.number(), node_errors: z.record(z.string(), z.unknown()).optional() });
const PromptRefused = z.object({ error: Reason, node_errors: NodeErrorsSchema.default({}) });
const QueueItem = z.array(z.unknown()).min(2);
const Queue = z.object({ queue_running: z.array(QueueItem), queue_pending: z.array(QueueItem) });
const Upload = z.object({ name: z.string().min(1) });

const MODEL_FOLDERS: Record<string, string> = {
  ckpt_name: 'checkpoints',
  lora_name: 'loras',
  vae_name: 'vae',
  unet_name: 'diffusion_models',
  clip_name: 'text_encoders',
  model_name: 'models',
  control_net_name: 'controlnet',
};

function reasonSentence(classType: string, r: PromptErrorReason): string {
  const input = typeof r.extra_info.input_name === 'string' ? r.extra_info.input_name : r.details.split(/[:,]/)[0]?.trim() || 'an input';
  const received = r.extra_info.received_value;
  switch (r.type) {
    case 'value_not_in_list': {
      const folder = MODEL_FOLDERS[input];
      if (folder) return `the model file "${String(received)}" is not in the picture engine's ${folder} folder (${classType})`;
      return `"${String(received)}" is not a choice the picture engine accepts for ${input} (${classType})`;
    }
    case 'required_input_missing':
      return `${classType} is missing its ${input}`;
    case 'custom_validation_failed':
      return classType.startsWith('LoadImage') ? `the picture engine could not find the uploaded picture (${classType})` : `${classType} refused its settings: ${r.details}`;
    case 'value_smaller_than_min':
    case 'value_bigger_than_max':
      return `${input} of ${classType} is out of range (${r.message})`;
    default:
      return `${classType} refused its ${input}: ${r.message}`;
  }
}

/** A refusal of POST /prompt (API.md §3) as one sentence, and the class that is missing if that was it. */
export function refusalSentence(error: PromptErrorReason, nodeErrors: NodeErrors): { message: string; missingClass: string | null } {
  const missing = /^Cannot execute because node (.+) does not exist\.$/.exec(error.message) ?? (error.type === 'missing_node_type' ? [null, String(error.extra_info.class_type ?? '')] : null);
  if (missing?.[1]) {
    return { message: `The picture engine does not have the ${missing[1]} node; the custom node pack that brings it is not installed.`, missingClass: missing[1] };
  }
  const parts: string[] = [];
  for (const entry of Object.values(nodeErrors)) for (const r of entry.errors) parts.push(reasonSentence(entry.class_type, r));
  if (parts.length === 0) return { message: `The picture engine refused the picture's recipe: ${error.message}.`, missingClass: null };
  const first = parts[0]!;
  const more = parts.length > 1 ? ` (and ${parts.length - 1} more problem${parts.length > 2 ? 's' : ''})` : '';
  return { message: `The picture engine refused the picture's recipe: ${first}${more}.`, missingClass: null };
}

/** One WebSocket message of the engine (API.md §6) as a frame, or null for what Hearth does not use. */
export function decodeFrame(data: Buffer, isBinary: boolean): EngineFrame | null {
  if (isBinary) {
    if (data.length < 8) throw badAnswer('a binary frame too short');
    const event = data.readUInt32BE(0);
    if (event === 1) {
      const format = data.readUInt32BE(4);
      return { type: 'preview', format: format === 2 ? 'png' : 'jpeg', bytes: data.subarray(8) };
    }
    if (event === 4) {
      const len = data.readUInt32BE(4);
      if (8 + len > data.length) throw badAnswer('a preview frame shorter than its header says');
      let imageType = 'image/jpeg';
      try {
        const meta = JSON.parse(data.subarray(8, 8 + len).toString('utf8')) as { image_type?: unknown };
        if (typeof meta.image_type === 'string') imageType = meta.image_type;
      } catch {
        throw badAnswer('a preview frame with unreadable metadata');
      }
      return { type: 'preview', format: imageType === 'image/png' ? 'png' : 'jpeg', bytes: data.subarray(8 + len) };
    }
    return null; // 3: progress text
  }
  let msg: { type?: unknown; data?: Record<string, unknown> };
  try {
    msg = JSON.parse(data.toString('utf8')) as typeof msg;
  } catch {
    throw badAnswer('a message that is not JSON');
  }
  const d = msg.data ?? {};
  const promptId = typeof d.prompt_id === 'string' ? d.prompt_id : '';
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  switch (msg.type) {
    case 'status': {
      const status = d.status as { exec_info?: { queue_remaining?: unknown } } | undefined;
      const n = status?.exec_info?.queue_remaining;
      return { type: 'status', queueRemaining: typeof n === 'number' ? n : 0 };
    }
    case 'execution_start':
      return { type: 'execution_start', promptId };
    case 'execution_cached':
      return { type: 'execution_cached', promptId, nodes: Array.isArray(d.nodes) ? d.nodes.map(String) : [] };
    case 'executing':
      return { type: 'executing', promptId, node: str(d.node) };
    case 'progress':
      return { type: 'progress', promptId, node: String(d.node ?? ''), value: Number(d.value ?? 0), max: Number(d.max ?? 0) };
    case 'executed': {
      // SaveAudio's files come as `audio` (comfy_extras/nodes_audio.py)
      const output = (d.output ?? {}) as { images?: EngineFileRef[]; gifs?: EngineFileRef[]; audio?: EngineFileRef[] };
      const list = (v: EngineFileRef[] | undefined) => (Array.isArray(v) ? v : undefined);
      return { type: 'executed', promptId, node: String(d.node ?? ''), output: { images: list(output.images), gifs: list(output.gifs), audio: list(output.audio) } };
    }
    case 'execution_success':
      return { type: 'execution_success', promptId };
    case 'execution_error':
      return { type: 'execution_error', promptId, node: str(d.node_id), nodeType: str(d.node_type), exceptionType: String(d.exception_type ?? 'Exception'), message: String(d.exception_message ?? '') };
    case 'execution_interrupted':
      return { type: 'execution_interrupted', promptId };
    default:
      return null;
  }
}

export function createComfyUiClient(opts: ComfyUiClientOptions): ImageEngineClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const transferMs = opts.transferTimeoutMs ?? 60_000;
  let cachedInfo: ObjectInfo | null = null;

  const call = async (path: string, init: { method?: string; body?: string | Buffer; json?: boolean; contentType?: string; signal?: AbortSignal; timeout?: number } = {}) => {
    const signals = [AbortSignal.timeout(init.timeout ?? timeoutMs), ...(init.signal ? [init.signal] : [])];
    try {
      return await undici().fetch(`${baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: init.json ? { 'content-type': 'application/json' } : init.contentType ? { 'content-type': init.contentType } : undefined,
        body: init.body,
        signal: AbortSignal.any(signals),
      });
    } catch (err) {
      if (init.signal?.aborted) throw init.signal.reason ?? err;
      throw unreachable();
    }
  };
  const readJson = async (res: Awaited<ReturnType<typeof call>>, what: string): Promise<unknown> => {
    const text = await res.text().catch(() => {
      throw unreachable();
    });
    try {
      return JSON.parse(text);
    } catch {
      throw badAnswer(what);
    }
  };
  const parse = <T>(schema: z.ZodType<T>, value: unknown, what: string): T => {
    const r = schema.safeParse(value);
    if (!r.success) throw badAnswer(what);
    return r.data;
  };
  const expectOk = async (res: Awaited<ReturnType<typeof call>>, what: string) => {
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw badAnswer(`${what} answered ${res.status}`);
    }
  };

  return {
    async systemStats(signal) {
      const res = await call('/system_stats', { signal });
      await expectOk(res, 'system stats');
      const s = parse(SystemStats, await readJson(res, 'system stats'), 'system stats');
      return {
        comfyuiVersion: s.system.comfyui_version ?? null,
        devices: s.devices.map((d) => ({ name: d.name, type: d.type, vramTotal: d.vram_total ?? 0, vramFree: d.vram_free ?? 0 })),
      } satisfies EngineSystemStats;
    },
    async objectInfo(signal) {
      if (cachedInfo) return cachedInfo;
      const res = await call('/object_info', { signal, timeout: transferMs });
      await expectOk(res, 'node list');
      const raw = await readJson(res, 'node list');
      try {
        cachedInfo = readObjectInfo(raw);
      } catch {
        throw badAnswer('node list');
      }
      return cachedInfo;
    },
    forget() {
      cachedInfo = null;
    },
    connect(clientId, signal) {
      const url = `${baseUrl.replace(/^http/, 'ws')}/ws?clientId=${encodeURIComponent(clientId)}`;
      return new Promise<EngineSocket>((resolve, reject) => {
        const ws: WebSocket = new (loadWs())(url, { handshakeTimeout: timeoutMs });
        const frameListeners: ((f: EngineFrame) => void)[] = [];
        const closeListeners: ((e: Error | null) => void)[] = [];
        let opened = false;
        let closedByUs = false;
        let lastError: Error | null = null;
        const onAbort = () => ws.terminate();
        signal?.addEventListener('abort', onAbort, { once: true });
        ws.on('message', (data: Buffer, isBinary: boolean) => {
          let frame: EngineFrame | null;
          try {
            frame = decodeFrame(data, isBinary);
          } catch {
            frame = null; // one unreadable frame is skipped, as an unknown one is
          }
          if (frame) for (const l of frameListeners) l(frame);
        });
        ws.on('error', (err) => {
          lastError = err;
          if (!opened) {
            signal?.removeEventListener('abort', onAbort);
            reject(signal?.aborted ? (signal.reason as Error) : unreachable());
          }
        });
        ws.on('close', (code) => {
          signal?.removeEventListener('abort', onAbort);
          if (!opened) {
            reject(unreachable());
            return;
          }
          const error = closedByUs ? null : (lastError ?? new Error(`the picture engine closed its connection (${code})`));
          for (const l of closeListeners) l(error);
        });
        ws.on('open', () => {
          opened = true;
          signal?.removeEventListener('abort', onAbort);
          resolve({
            onFrame: (l) => void frameListeners.push(l),
            onClose: (l) => void closeListeners.push(l),
            close() {
              closedByUs = true;
              ws.close();
            },
          });
        });
      });
    },
    async submit(graph: ApiGraph, clientId, signal) {
      const res = await call('/prompt', { method: 'POST', json: true, body: JSON.stringify({ prompt: graph, client_id: clientId }), signal });
      const body = await readJson(res, 'the answer to a new job');
      if (res.status === 400) {
        const refused = parse(PromptRefused, body, 'a refusal');
        const { message, missingClass } = refusalSentence(refused.error, refused.node_errors);
        const refusal: EngineRefusal = { message, nodeErrors: refused.node_errors, missingClass };
        return { refused: refusal };
      }
      if (!res.ok) throw badAnswer(`a new job answered ${res.status}`);
      return { promptId: parse(PromptOk, body, 'the answer to a new job').prompt_id };
    },
    async queue(signal) {
      const res = await call('/queue', { signal });
      await expectOk(res, 'queue');
      const q = parse(Queue, await readJson(res, 'queue'), 'queue');
      const ids = (items: unknown[][]) => items.map((i) => String(i[1]));
      return { running: ids(q.queue_running), pending: ids(q.queue_pending) };
    },
    async deleteQueued(promptIds) {
      const res = await call('/queue', { method: 'POST', json: true, body: JSON.stringify({ delete: promptIds }) });
      await expectOk(res, 'queue delete');
      await res.body?.cancel().catch(() => undefined);
    },
    async interrupt(promptId) {
      const res = await call('/interrupt', { method: 'POST', json: true, body: JSON.stringify(promptId ? { prompt_id: promptId } : {}) });
      await expectOk(res, 'interrupt');
      await res.body?.cancel().catch(() => undefined);
    },
    async uploadImage(bytes, fileName, signal) {
      // one multipart body in memory (pictures are capped well below the engine's upload limit)
      const boundary = `----hearth-${randomUUID()}`;
      const safeName = fileName.replace(/["\r\n/\\]/g, '_');
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ninput\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${safeName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await call('/upload/image', { method: 'POST', body, contentType: `multipart/form-data; boundary=${boundary}`, signal, timeout: transferMs });
      await expectOk(res, 'picture upload');
      return { name: parse(Upload, await readJson(res, 'picture upload'), 'picture upload').name };
    },
    async view(ref, signal) {
      const q = new URLSearchParams({ filename: ref.filename, subfolder: ref.subfolder, type: ref.type });
      const res = await call(`/view?${q.toString()}`, { signal, timeout: transferMs });
      await expectOk(res, 'picture download');
      try {
        return Buffer.from(await res.arrayBuffer());
      } catch {
        throw unreachable();
      }
    },
  };
}
