// A protocol-faithful stand-in for the image engine, ComfyUI 0.3.64 (reference/comfyui/API.md
// §3-§7, §10-§11): node:http plus a ws WebSocket server on 127.0.0.1:0. Every route answers under
// /x and /api/x. POST /prompt checks each graph with validateGraph (the engine's own rules and
// error shapes) against the schemas of test/fixtures/comfyui and refuses an invalid one with the
// engine's 400 body. Accepted prompts run one at a time: execution_start, execution_cached,
// executing per node, per sampler step progress_state + progress + a binary JPEG preview (event 1,
// or event 4 after the client's feature_flags), tile progress for VAEDecodeTiled (not a sampler
// step), executed with the output files (real PNGs; for SaveAnimatedWEBP one animated WebP with the
// sampled latent's frames and size at its fps, `animated: [true]`; written with sharp into the
// fake's output folder), execution_success, status, executing {node:null}.
// Interrupt, queue delete, history, upload (multipart, the engine's own renaming) and view behave
// as the reference says. Failure modes, set per test: a slow start (nothing listens until
// startDelayMs), down (connection refused), garbage (HTML instead of JSON), and per job an
// execution_error at a step, a stall at a step (no frames until interrupted), or a crash at a step
// (every socket cut, HTTP stops answering, queue and history lost, until restart(), which may bring
// the engine back with another set of custom node packs).
// Music (`audio`): the core audio nodes added to the node list, with a Stable Audio Open checkpoint
// and the T5-base text encoder listed ('installed'), the nodes without those files ('no-models'),
// or none of it (the default: the curated list has no audio nodes). SaveAudio writes a real 1 s sine
// made with sox — FLAC as the engine's SaveAudio does, or WAV — and answers it as `output.audio`.
import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import busboy from 'busboy';
import sharp from 'sharp';
import { WebSocketServer, type WebSocket } from 'ws';
import { readObjectInfo, type ObjectInfo } from '../../server/adapters/image-engine/object-info.js';
import { validateGraph } from '../../server/adapters/image-engine/validate-graph.js';
import { AUDIO_OBJECT_INFO, objectInfoAnswer } from '../fixtures/comfyui/index.js';
import { makeTempDir } from '../harness/temp-dir.js';

/** What the next job (or every job) does. Steps count along the job's sampler steps, from 1. */
export interface JobScript {
  /** Time between sampler steps (and between nodes); default the engine's stepMs. */
  stepMs?: number;
  /** execution_error at this step of the first sampler (a CUDA out-of-memory unless `error` says). */
  failAtStep?: number;
  error?: { type: string; message: string };
  /** No frames from this step on until an interrupt. */
  stallAtStep?: number;
  /** The engine dies at this step: sockets cut, HTTP refused, queue and history lost. */
  crashAtStep?: number;
  /** The engine drops the job at this step without a word: no more frames, gone from /queue. */
  forgetAtStep?: number;
}

export type FakeEngineMode = 'ok' | 'down' | 'garbage';

export interface FakeImageEngineOptions {
  /** Custom node packs present (folder names of the fixture); default all. */
  packs?: readonly string[];
  /** Replaces the file list of every input with this name (e.g. `ckpt_name: []` leaves the checkpoints out). */
  files?: Readonly<Record<string, readonly string[]>>;
  /** Time between sampler steps; default 5 ms. */
  stepMs?: number;
  /** Nothing listens until this much time has passed (an engine loading its nodes). */
  startDelayMs?: number;
  /** Side of the written outputs in pixels; default 64. */
  outputPx?: number;
  /** The second dialect of API.md §12 for refusals; default 0.3.64. */
  dialect?: '0.3.64' | 'newer';
  /** Music: the audio nodes with their model files, the nodes alone, or neither (default). */
  audio?: FakeAudioMode;
  /** What SaveAudio writes: FLAC (the engine's own), WAV, or text that is not audio (a broken engine). */
  audioFormat?: 'flac' | 'wav' | 'garbage';
}

export type FakeAudioMode = 'installed' | 'no-models' | 'none';
/** The model files an engine set up for music lists. */
export const AUDIO_CHECKPOINT_FILE = 'stable-audio-open-1.0.safetensors';
export const AUDIO_ENCODER_FILE = 't5_base.safetensors';

/** The node list with the audio nodes, and with their model files appended to the lists when installed. */
function withAudio(answer: Record<string, unknown>, mode: FakeAudioMode): Record<string, unknown> {
  if (mode === 'none') return answer;
  const copy = JSON.parse(JSON.stringify({ ...answer, ...AUDIO_OBJECT_INFO })) as Record<string, { input: { required: Record<string, unknown[]> } }>;
  if (mode === 'installed') {
    (copy.CheckpointLoaderSimple!.input.required.ckpt_name![0] as string[]).push(AUDIO_CHECKPOINT_FILE);
    (copy.CLIPLoader!.input.required.clip_name![0] as string[]).push(AUDIO_ENCODER_FILE);
  }
  return copy;
}

export interface SubmittedPrompt {
  promptId: string;
  number: number;
  graph: Record<string, unknown>;
  clientId: string | null;
}

export interface FakeImageEngine {
  readonly url: string;
  readonly port: number;
  readonly mode: FakeEngineMode;
  /** The output folder (files written by save nodes). */
  readonly outputDir: string;
  readonly inputDir: string;
  /** Every accepted prompt, in order. */
  readonly prompts: SubmittedPrompt[];
  /** Every request: method and path with query. */
  readonly requests: { method: string; path: string }[];
  /** Bodies of POST /interrupt and POST /queue, in order. */
  readonly interrupts: unknown[];
  readonly queueEdits: unknown[];
  /** The running prompt and its sampler step, or null. */
  readonly running: { promptId: string; step: number; stalled: boolean } | null;
  pendingIds(): string[];
  /** Open WebSocket connections. */
  socketCount(): number;
  /** Applies to every job from now on. */
  script: JobScript;
  /** What SaveAudio writes from now on (starts as the option's, FLAC by default). */
  audioFormat: 'flac' | 'wav' | 'garbage';
  /** Applies to the next job only (then `script` again). */
  scriptNext(s: JobScript): void;
  setMode(mode: FakeEngineMode): Promise<void>;
  /** Dies now (as crashAtStep does): sockets cut, HTTP refused, queue and history lost. */
  crash(): Promise<void>;
  /**
   * Listens again on the same port with an empty queue and history; with `packs` or `files`, with
   * that node set from now on (an engine restarted after custom nodes were added or removed).
   */
  restart(nodes?: Pick<FakeImageEngineOptions, 'packs' | 'files' | 'audio'>): Promise<void>;
  close(): Promise<void>;
}

/** The engine's CUDA out-of-memory text (API.md §7). */
export const OOM_MESSAGE = 'Allocation on device \nThis error means you ran out of memory on your GPU.\n\nTIPS: If the workflow worked before you might have accidentally set the batch_size to a large number.';

/** Files of the reference's placeholder input list, present in the input folder from the start. */
const PLACEHOLDER_INPUTS = ['example.png', 'reference_face.png'];
const SAVE_CLASSES = new Set(['SaveImage', 'PreviewImage', 'SaveAnimatedWEBP', 'SaveAnimatedPNG', 'SaveAudio']);
const SAMPLER_INPUTS = ['steps'];
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface QueueItem {
  number: number;
  promptId: string;
  graph: Record<string, Record<string, unknown>>;
  extraData: Record<string, unknown>;
  outputs: string[];
}

interface HistoryEntry {
  prompt: unknown[];
  outputs: Record<string, { images?: { filename: string; subfolder: string; type: string }[]; audio?: { filename: string; subfolder: string; type: string }[]; animated?: boolean[] }>;
  status: { status_str: 'success' | 'error'; completed: boolean; messages: [string, Record<string, unknown>][] };
  meta: Record<string, unknown>;
}

function withFiles(answer: Record<string, unknown>, files: Readonly<Record<string, readonly string[]>>): Record<string, unknown> {
  if (Object.keys(files).length === 0) return answer;
  const copy = JSON.parse(JSON.stringify(answer)) as Record<string, { input?: Record<string, Record<string, unknown[]>> }>;
  for (const node of Object.values(copy)) {
    for (const cat of ['required', 'optional']) {
      const inputs = node.input?.[cat];
      if (!inputs) continue;
      for (const [name, def] of Object.entries(inputs)) {
        const list = files[name];
        if (list && Array.isArray(def[0])) def[0] = [...list];
        else if (list && def[0] === 'COMBO' && def[1] && typeof def[1] === 'object') (def[1] as Record<string, unknown>).options = [...list];
      }
    }
  }
  return copy;
}

/** The nodes the outputs depend on, in an order where every link's source comes first. */
function runOrder(graph: Record<string, Record<string, unknown>>, outputs: string[]): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    if (seen.has(id) || !graph[id]) return;
    seen.add(id);
    const inputs = (graph[id].inputs ?? {}) as Record<string, unknown>;
    for (const v of Object.values(inputs)) if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string') visit(v[0]);
    order.push(id);
  };
  for (const o of outputs) visit(o);
  return order;
}

interface ClipShape {
  width: number;
  height: number;
  frames: number;
  fps: number;
}

/** Frames written per clip at most, so a test's fake stays quick (the real engine writes them all). */
const MAX_FAKE_FRAMES = 32;

/**
 * What a SaveAnimatedWEBP node receives: the frames and size of the latent its images were sampled
 * from (EmptyLatentImage's batch for AnimateDiff, SVD_img2vid_Conditioning's video_frames,
 * EmptyHunyuanLatentVideo's length), found by walking its links upstream.
 */
function clipShape(graph: Record<string, Record<string, unknown>>, saveId: string): ClipShape | null {
  const save = (graph[saveId]?.inputs ?? {}) as Record<string, unknown>;
  const fps = typeof save.fps === 'number' && save.fps > 0 ? save.fps : 6;
  const seen = new Set<string>();
  const queue = [saveId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id) || !graph[id]) continue;
    seen.add(id);
    const node = graph[id];
    const inputs = (node.inputs ?? {}) as Record<string, unknown>;
    const num = (k: string) => (typeof inputs[k] === 'number' ? (inputs[k] as number) : null);
    const frames =
      node.class_type === 'EmptyLatentImage' ? num('batch_size') : node.class_type === 'SVD_img2vid_Conditioning' ? num('video_frames') : node.class_type === 'EmptyHunyuanLatentVideo' ? num('length') : null;
    if (frames !== null && num('width') !== null && num('height') !== null) return { width: num('width')!, height: num('height')!, frames: Math.max(1, Math.min(frames, MAX_FAKE_FRAMES)), fps };
    for (const v of Object.values(inputs)) if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string') queue.push(v[0]);
  }
  return null;
}

function frameOf(eventType: number, ...parts: Buffer[]): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(eventType, 0);
  return Buffer.concat([head, ...parts]);
}
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
};

export async function startFakeImageEngine(opts: FakeImageEngineOptions = {}): Promise<FakeImageEngine> {
  const temp = makeTempDir('fake-image-engine-');
  const root = temp.dir;
  const outputDir = join(root, 'output');
  const inputDir = join(root, 'input');
  mkdirSync(outputDir, { recursive: true });
  mkdirSync(inputDir, { recursive: true });
  const placeholder = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#808080' } }).png().toBuffer();
  for (const name of PLACEHOLDER_INPUTS) writeFileSync(join(inputDir, name), placeholder);

  let answer = withAudio(withFiles(objectInfoAnswer(opts.packs), opts.files ?? {}), opts.audio ?? 'none');
  let info: ObjectInfo = readObjectInfo(answer);
  const outputPx = opts.outputPx ?? 64;
  const previews = await Promise.all(
    ['#203040', '#405060', '#607080', '#8090a0'].map((bg) => sharp({ create: { width: 48, height: 48, channels: 3, background: bg } }).jpeg({ quality: 95 }).toBuffer()),
  );

  let mode: FakeEngineMode = 'ok';
  let port = 0;
  let counter = 0;
  let fileCounter = 0;
  let queue: QueueItem[] = [];
  let history = new Map<string, HistoryEntry>();
  let running: { item: QueueItem; step: number; stalled: boolean; lastNode: string | null } | null = null;
  let interruptFlag = false;
  let alive = true; // false between a crash and restart()
  let generation = 0; // bumped on crash, so a running job of a dead engine stops
  const prompts: SubmittedPrompt[] = [];
  const requests: { method: string; path: string }[] = [];
  const interrupts: unknown[] = [];
  const queueEdits: unknown[] = [];
  const nextScripts: JobScript[] = [];
  const httpSockets = new Set<Socket>();
  /** clientId → socket, replaced on reconnect and deleted by clientId on close (0.3.64's gotcha). */
  const clients = new Map<string, WebSocket>();
  const metaClients = new WeakSet<WebSocket>();
  let wake: (() => void) | null = null;

  const send = (clientId: string | null, type: string, data: Record<string, unknown>): void => {
    const msg = JSON.stringify({ type, data });
    if (clientId === null) {
      for (const ws of clients.values()) ws.send(msg);
      return;
    }
    clients.get(clientId)?.send(msg);
  };
  const broadcastStatus = (): void => {
    send(null, 'status', { status: { exec_info: { queue_remaining: queue.length + (running ? 1 : 0) } } });
  };
  const sendBinary = (clientId: string | null, frame: Buffer): void => {
    const targets = clientId === null ? [...clients.values()] : [clients.get(clientId)].filter((w): w is WebSocket => w !== undefined);
    for (const ws of targets) ws.send(frame);
  };

  const writeOutput = async (classType: string, prefix: string, clip: ClipShape | null): Promise<{ filename: string; subfolder: string; type: string; animated: boolean }> => {
    fileCounter++;
    const n = String(fileCounter).padStart(5, '0');
    const parts = prefix.split('/');
    const base = parts.pop() || 'ComfyUI';
    const subfolder = parts.join('/');
    mkdirSync(join(outputDir, subfolder), { recursive: true });
    const type = classType === 'PreviewImage' ? 'temp' : 'output';
    const dir = type === 'temp' ? join(root, 'temp', subfolder) : join(outputDir, subfolder);
    mkdirSync(dir, { recursive: true });
    if (classType === 'SaveAudio') {
      // SaveAudio writes `<prefix>_<n>_.flac` (comfy_extras/nodes_audio.py); a 1 s sine made by sox
      const ext = api.audioFormat;
      const filename = `${base}_${n}_.${ext === 'garbage' ? 'flac' : ext}`;
      if (ext === 'garbage') writeFileSync(join(dir, filename), '<html>Internal Server Error</html>'.repeat(4));
      else execFileSync('sox', ['-q', '-n', '-r', '44100', '-c', '2', join(dir, filename), 'synth', '1', 'sine', '440', 'vol', '0.3']);
      return { filename, subfolder, type, animated: false };
    }
    const colour = { r: (fileCounter * 40) % 256, g: 120, b: 200 };
    if (classType === 'SaveAnimatedWEBP') {
      // one .webp holding every frame the sampler made, at the latent's size, duration 1000/fps (API.md §3)
      const shape = clip ?? { width: outputPx, height: outputPx, frames: 4, fps: 6 };
      const pics = await Promise.all(
        Array.from({ length: shape.frames }, (_, i) => sharp({ create: { width: shape.width, height: shape.height, channels: 3, background: { ...colour, g: (i * 37) % 256 } } }).png().toBuffer()),
      );
      const filename = `${base}_${n}_.webp`;
      const delay = Math.round(1000 / shape.fps);
      writeFileSync(join(dir, filename), await sharp(pics, { join: { animated: true } }).webp({ loop: 0, quality: 80, delay: pics.map(() => delay) }).toBuffer());
      return { filename, subfolder, type, animated: true };
    }
    const filename = `${base}_${n}_.png`;
    writeFileSync(join(dir, filename), await sharp({ create: { width: outputPx, height: outputPx, channels: 3, background: colour } }).png().toBuffer());
    return { filename, subfolder, type, animated: false };
  };

  /** Runs one queued prompt as the engine's worker does. */
  const execute = async (item: QueueItem, script: JobScript): Promise<void> => {
    const gen = generation;
    const clientId = typeof item.extraData.client_id === 'string' ? item.extraData.client_id : null;
    const promptId = item.promptId;
    const stepMs = script.stepMs ?? opts.stepMs ?? 5;
    const dead = () => gen !== generation;
    const messages: [string, Record<string, unknown>][] = [];
    const ts = () => Date.now();
    const clientOnly = (type: string, data: Record<string, unknown>) => {
      if (clientId !== null) send(clientId, type, data);
      messages.push([type, data]);
    };
    const cur: NonNullable<typeof running> = { item, step: 0, stalled: false, lastNode: null };
    running = cur;
    interruptFlag = false;
    broadcastStatus();
    clientOnly('execution_start', { prompt_id: promptId, timestamp: ts() });
    clientOnly('execution_cached', { nodes: [], prompt_id: promptId, timestamp: ts() });
    const outputs: HistoryEntry['outputs'] = {};
    const executed: string[] = [];
    let samplerStep = 0;
    let firstSampler: string | null = null;
    const finish = (status: 'success' | 'error') => {
      history.set(promptId, {
        prompt: [item.number, promptId, item.graph, item.extraData, item.outputs],
        outputs,
        status: { status_str: status, completed: status === 'success', messages },
        meta: Object.fromEntries(Object.keys(outputs).map((id) => [id, { node_id: id, display_node: id, parent_node: null, real_node_id: id }])),
      });
      running = null;
      broadcastStatus();
      if (clientId !== null) send(clientId, 'executing', { node: null, prompt_id: promptId });
    };
    const interrupted = (nodeId: string, nodeType: string) => {
      const data = { prompt_id: promptId, node_id: nodeId, node_type: nodeType, executed: [...executed], timestamp: ts() };
      send(clientId, 'execution_interrupted', data);
      messages.push(['execution_interrupted', data]);
      finish('error');
    };
    for (const nodeId of runOrder(item.graph, item.outputs)) {
      const node = item.graph[nodeId]!;
      const classType = String(node.class_type);
      const inputs = (node.inputs ?? {}) as Record<string, unknown>;
      if (interruptFlag) return interrupted(nodeId, classType);
      await sleep(Math.min(stepMs, 2));
      if (dead()) return;
      cur.lastNode = nodeId;
      clientOnly('executing', { node: nodeId, display_node: nodeId, prompt_id: promptId });
      const steps = SAMPLER_INPUTS.map((k) => inputs[k]).find((v) => typeof v === 'number');
      if (typeof steps === 'number' && classType !== 'SaveAnimatedWEBP') {
        firstSampler ??= nodeId;
        for (let value = 1; value <= steps; value++) {
          samplerStep++;
          cur.step = samplerStep;
          if (script.crashAtStep === samplerStep) {
            await crash();
            return;
          }
          if (script.forgetAtStep === samplerStep) {
            running = null;
            return;
          }
          if (script.stallAtStep === samplerStep) {
            cur.stalled = true;
            while (!interruptFlag && !dead()) await new Promise<void>((r) => (wake = r));
            if (dead()) return;
            return interrupted(nodeId, classType);
          }
          if (script.failAtStep === samplerStep) {
            const err = script.error ?? { type: 'torch.OutOfMemoryError', message: OOM_MESSAGE };
            const data = {
              prompt_id: promptId,
              node_id: nodeId,
              node_type: classType,
              executed: [...executed],
              exception_message: err.message,
              exception_type: err.type,
              traceback: ['Traceback (most recent call last):\n', '  File "execution.py", line 496, in execute\n'],
              current_inputs: {},
              current_outputs: [],
              timestamp: ts(),
            };
            clientOnly('execution_error', data);
            return finish('error');
          }
          if (interruptFlag) return interrupted(nodeId, classType);
          const nodes = { [nodeId]: { value, max: steps, state: 'running', node_id: nodeId, prompt_id: promptId, display_node_id: nodeId, parent_node_id: null, real_node_id: nodeId } };
          send(clientId, 'progress_state', { prompt_id: promptId, nodes });
          const jpeg = previews[samplerStep % previews.length]!;
          const withMeta = clientId !== null && clients.get(clientId) !== undefined && metaClients.has(clients.get(clientId)!);
          if (withMeta) {
            const meta = Buffer.from(JSON.stringify({ node_id: nodeId, prompt_id: promptId, display_node_id: nodeId, parent_node_id: null, real_node_id: nodeId, image_type: 'image/jpeg' }));
            sendBinary(clientId, frameOf(4, u32(meta.length), meta, jpeg));
          }
          send(clientId, 'progress', { value, max: steps, prompt_id: promptId, node: nodeId });
          if (!withMeta) sendBinary(clientId, frameOf(1, u32(1), jpeg));
          await sleep(stepMs);
          if (dead()) return;
        }
      } else if (classType === 'VAEDecodeTiled' || classType === 'ImageUpscaleWithModel') {
        // tiles report progress too; they are not sampler steps (API.md §6.2)
        for (let value = 1; value <= 2; value++) send(clientId, 'progress', { value, max: 2, prompt_id: promptId, node: nodeId });
      }
      if (SAVE_CLASSES.has(classType)) {
        const prefix = typeof inputs.filename_prefix === 'string' ? inputs.filename_prefix : 'ComfyUI';
        const file = await writeOutput(classType, prefix, classType === 'SaveAnimatedWEBP' ? clipShape(item.graph, nodeId) : null);
        if (dead()) return;
        const ref = { filename: file.filename, subfolder: file.subfolder, type: file.type };
        const output = classType === 'SaveAudio' ? { audio: [ref] } : { images: [ref], ...(file.animated ? { animated: [true] } : {}) };
        outputs[nodeId] = output;
        clientOnly('executed', { node: nodeId, display_node: nodeId, output, prompt_id: promptId });
      }
      executed.push(nodeId);
    }
    clientOnly('execution_success', { prompt_id: promptId, timestamp: ts() });
    finish('success');
  };

  let working = false;
  const work = async (): Promise<void> => {
    if (working) return;
    working = true;
    try {
      while (alive && queue.length > 0) {
        queue.sort((a, b) => a.number - b.number);
        const item = queue.shift()!;
        const script = nextScripts.shift() ?? api.script;
        await execute(item, script);
      }
    } finally {
      working = false;
    }
  };

  // ── HTTP ──────────────────────────────────────────────────────────────────────────────────────
  const readBody = (req: IncomingMessage): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  const json = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const empty = (res: ServerResponse, status: number): void => {
    res.writeHead(status);
    res.end();
  };
  const parseJson = (raw: Buffer): unknown => (raw.length === 0 ? {} : JSON.parse(raw.toString('utf8')));
  const inputFileExists = (name: string): boolean => {
    const clean = name.replace(/ \[(input|output|temp)\]$/, '');
    return !clean.startsWith('/') && !clean.includes('..') && existsSync(join(inputDir, clean));
  };

  const upload = (req: IncomingMessage, res: ServerResponse): void => {
    let file: Buffer | null = null;
    let fileName = '';
    const fields: Record<string, string> = {};
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers });
    } catch {
      return empty(res, 400);
    }
    bb.on('file', (_name, stream, infoOf) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (_name === 'image') {
          file = Buffer.concat(chunks);
          fileName = infoOf.filename ?? '';
        }
      });
    });
    bb.on('field', (name, value) => (fields[name] = value));
    bb.on('error', () => {
      if (!res.headersSent) empty(res, 400);
    });
    bb.on('close', () => {
      if (res.headersSent) return;
      if (file === null || !fileName) return empty(res, 400);
      const type = fields.type ?? 'input';
      if (!['input', 'temp', 'output'].includes(type)) return empty(res, 500);
      const subfolder = fields.subfolder ?? '';
      if (subfolder.includes('..') || fileName.includes('..') || fileName.includes('/')) return empty(res, 400);
      const dir = join(type === 'input' ? inputDir : type === 'output' ? outputDir : join(root, 'temp'), subfolder);
      mkdirSync(dir, { recursive: true });
      const overwrite = fields.overwrite === 'true' || fields.overwrite === '1';
      let name = fileName;
      if (!overwrite) {
        const dot = fileName.lastIndexOf('.');
        const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
        const ext = dot > 0 ? fileName.slice(dot) : '';
        const sameBytes = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex') === createHash('sha256').update(file!).digest('hex');
        for (let i = 1; existsSync(join(dir, name)) && !sameBytes(join(dir, name)); i++) name = `${stem} (${i})${ext}`;
      }
      writeFileSync(join(dir, name), file);
      json(res, 200, { name, subfolder, type });
    });
    req.pipe(bb);
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/api(?=\/)/, '');
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname + url.search });
    if (mode === 'garbage') {
      if (method === 'POST') await readBody(req);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('<html><body>502 Bad Gateway</body></html>');
      return;
    }
    if (method === 'POST' && path === '/upload/image') return upload(req, res);
    const raw = method === 'POST' ? await readBody(req) : Buffer.alloc(0);

    if (method === 'GET' && path === '/system_stats') {
      return json(res, 200, {
        system: {
          os: 'posix',
          ram_total: 67_000_000_000,
          ram_free: 60_000_000_000,
          comfyui_version: '0.3.64',
          required_frontend_version: '1.27.10',
          installed_templates_version: '0.1.95',
          required_templates_version: '0.1.95',
          python_version: '3.12.3 (main, Jun 18 2025, 17:59:45) [GCC 13.3.0]',
          pytorch_version: '2.8.0+cu128',
          embedded_python: false,
          argv: ['main.py', '--listen', '127.0.0.1', '--port', String(port), '--preview-method', 'auto'],
        },
        devices: [{ name: 'cuda:0 NVIDIA GeForce RTX 4090 : cudaMallocAsync', type: 'cuda', index: 0, vram_total: 25_393_692_672, vram_free: 24_032_378_880, torch_vram_total: 0, torch_vram_free: 0 }],
      });
    }
    if (method === 'GET' && path === '/object_info') return json(res, 200, answer);
    if (method === 'GET' && path.startsWith('/object_info/')) {
      const cls = decodeURIComponent(path.slice('/object_info/'.length));
      return json(res, 200, cls in answer ? { [cls]: answer[cls] } : {});
    }
    if (method === 'GET' && path === '/features') return json(res, 200, { supports_preview_metadata: true, max_upload_size: 104_857_600 });
    if (method === 'GET' && path === '/prompt') return json(res, 200, { exec_info: { queue_remaining: queue.length + (running ? 1 : 0) } });
    if (method === 'POST' && path === '/prompt') {
      let body: Record<string, unknown>;
      try {
        body = parseJson(raw) as Record<string, unknown>;
      } catch {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('500 Internal Server Error\n\nServer got itself in trouble');
        return;
      }
      if (!('prompt' in body)) return json(res, 400, { error: { type: 'no_prompt', message: 'No prompt provided', details: 'No prompt provided', extra_info: {} }, node_errors: {} });
      const graph = body.prompt as Record<string, Record<string, unknown>>;
      const v = validateGraph(graph, info, { dialect: opts.dialect, inputFileExists });
      if (!v.ok) return json(res, 400, { error: v.error, node_errors: v.node_errors });
      const promptId = typeof body.prompt_id === 'string' ? body.prompt_id : randomUUID();
      const number = body.front === true ? -counter++ : typeof body.number === 'number' ? body.number : counter++;
      const extraData = { ...((body.extra_data as Record<string, unknown> | undefined) ?? {}), ...(typeof body.client_id === 'string' ? { client_id: body.client_id } : {}) };
      const item: QueueItem = { number, promptId, graph, extraData, outputs: v.outputs };
      queue.push(item);
      prompts.push({ promptId, number, graph, clientId: typeof body.client_id === 'string' ? body.client_id : null });
      broadcastStatus();
      void work(); // the engine's worker runs on its own
      return json(res, 200, { prompt_id: promptId, number, node_errors: v.node_errors });
    }
    const tuple = (i: QueueItem) => [i.number, i.promptId, i.graph, i.extraData, i.outputs];
    if (method === 'GET' && path === '/queue') return json(res, 200, { queue_running: running ? [tuple(running.item)] : [], queue_pending: queue.map(tuple) });
    if (method === 'POST' && path === '/queue') {
      const body = parseJson(raw) as { clear?: boolean; delete?: string[] };
      queueEdits.push(body);
      if (body.clear === true) queue = [];
      if (Array.isArray(body.delete)) queue = queue.filter((i) => !body.delete!.includes(i.promptId));
      return empty(res, 200);
    }
    if (method === 'POST' && path === '/interrupt') {
      let body: { prompt_id?: string };
      try {
        body = parseJson(raw) as { prompt_id?: string };
      } catch {
        body = {};
      }
      interrupts.push(body);
      if (running && (body.prompt_id === undefined || body.prompt_id === running.item.promptId)) {
        interruptFlag = true;
        wake?.();
      }
      return empty(res, 200);
    }
    if (method === 'GET' && path === '/history') return json(res, 200, Object.fromEntries(history));
    if (method === 'GET' && path.startsWith('/history/')) {
      const id = decodeURIComponent(path.slice('/history/'.length));
      const entry = history.get(id);
      return json(res, 200, entry ? { [id]: entry } : {});
    }
    if (method === 'POST' && path === '/history') {
      const body = parseJson(raw) as { clear?: boolean; delete?: string[] };
      if (body.clear === true) history = new Map();
      for (const id of body.delete ?? []) history.delete(id);
      return empty(res, 200);
    }
    if (method === 'GET' && path === '/view') {
      let filename = url.searchParams.get('filename');
      if (!filename) return empty(res, 404);
      let type = url.searchParams.get('type') ?? 'output';
      const suffix = /^(.*) \[(input|output|temp)\]$/.exec(filename);
      if (suffix) {
        filename = suffix[1]!;
        type = suffix[2]!;
      }
      if (filename.startsWith('/') || filename.includes('..')) return empty(res, 400);
      if (!['output', 'input', 'temp'].includes(type)) return empty(res, 400);
      const subfolder = url.searchParams.get('subfolder') ?? '';
      if (subfolder.includes('..') || subfolder.startsWith('/')) return empty(res, 403);
      const base = type === 'output' ? outputDir : type === 'input' ? inputDir : join(root, 'temp');
      const file = join(base, subfolder, filename);
      if (!existsSync(file)) return empty(res, 404);
      const ext = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
      const types: Record<string, string> = { png: 'image/png', webp: 'image/webp', jpg: 'image/jpeg', jpeg: 'image/jpeg', flac: 'audio/flac', wav: 'audio/x-wav' };
      const ctype = types[ext] ?? 'application/octet-stream';
      res.writeHead(200, { 'Content-Type': ctype, 'Content-Disposition': `filename="${filename}"` });
      res.end(readFileSync(file));
      return;
    }
    empty(res, 404);
  };

  const server = http.createServer((req, res) => {
    route(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('500 Internal Server Error');
    });
  });
  server.on('connection', (s) => {
    httpSockets.add(s);
    s.on('close', () => httpSockets.delete(s));
  });

  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if ((url.pathname !== '/ws' && url.pathname !== '/api/ws') || mode !== 'ok') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const sid = url.searchParams.get('clientId') || randomUUID().replace(/-/g, '');
      clients.set(sid, ws);
      let first = true;
      ws.on('message', (data, isBinary) => {
        if (!first || isBinary) return;
        first = false;
        try {
          const msg = JSON.parse(String(data)) as { type?: string; data?: { supports_preview_metadata?: boolean } };
          if (msg.type === 'feature_flags') {
            if (msg.data?.supports_preview_metadata === true) metaClients.add(ws);
            ws.send(JSON.stringify({ type: 'feature_flags', data: { supports_preview_metadata: true, max_upload_size: 104_857_600 } }));
          }
        } catch {
          // the engine ignores what it cannot read
        }
      });
      ws.on('close', () => {
        // 0.3.64 removes the registration by clientId, even when a newer socket took it over
        clients.delete(sid);
      });
      ws.send(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: queue.length + (running ? 1 : 0) } }, sid } }));
      if (running && running.item.extraData.client_id === sid && running.lastNode !== null) ws.send(JSON.stringify({ type: 'executing', data: { node: running.lastNode } }));
    });
  });

  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      for (const ws of wss.clients) ws.terminate();
      clients.clear();
      for (const s of httpSockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  async function crash(): Promise<void> {
    alive = false;
    generation++;
    wake?.();
    queue = [];
    history = new Map();
    running = null;
    mode = 'down';
    await stopListening();
  }

  await listen(0);
  if (opts.startDelayMs !== undefined && opts.startDelayMs > 0) {
    await stopListening();
    mode = 'down';
    setTimeout(() => {
      listen(port).then(
        () => (mode = 'ok'),
        () => undefined,
      );
    }, opts.startDelayMs).unref();
  }

  const api: FakeImageEngine = {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    get mode() {
      return mode;
    },
    outputDir,
    inputDir,
    prompts,
    requests,
    interrupts,
    queueEdits,
    get running() {
      return running ? { promptId: running.item.promptId, step: running.step, stalled: running.stalled } : null;
    },
    pendingIds: () => [...queue].sort((a, b) => a.number - b.number).map((i) => i.promptId),
    socketCount: () => wss.clients.size,
    script: {},
    audioFormat: opts.audioFormat ?? 'flac',
    scriptNext(s) {
      nextScripts.push(s);
    },
    async setMode(next) {
      if (next === 'down' && mode !== 'down') await stopListening();
      if (next !== 'down' && mode === 'down') await listen(port);
      mode = next;
    },
    crash,
    async restart(nodes) {
      if (server.listening) await stopListening();
      if (nodes) {
        answer = withAudio(withFiles(objectInfoAnswer(nodes.packs ?? opts.packs), nodes.files ?? opts.files ?? {}), nodes.audio ?? opts.audio ?? 'none');
        info = readObjectInfo(answer);
      }
      queue = [];
      history = new Map();
      running = null;
      alive = true;
      await listen(port);
      mode = 'ok';
    },
    async close() {
      alive = false;
      generation++;
      wake?.();
      await stopListening();
      wss.close();
      temp.remove();
    },
  };
  return api;
}
