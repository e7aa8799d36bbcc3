// The household's one engine queue (ImageJobRunner, parts.ts). One job runs on the engine at a
// time; the others wait fairly, one job per member in turn, and hear their place as `step` events
// with a position. For each job: wait for the engine, upload its inputs, build the graph, open the
// WebSocket with a fresh client_id before POST /prompt, relay the samplers' progress as steps and
// the preview frames, fetch the saved output with /view into DATA_DIR/images/<userId>/<id>.<ext>
// (through the path guard), and update the row. A refusal, an execution_error, a stall (no frame
// for stallMs), a job the engine forgot (queue poll) and a broken connection each end the job with
// a sentence; a broken connection and a missing custom node also restart the engine. Another
// module's work on the same engine (a piece of music) takes its turn in this queue too (lease).
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ServiceUnavailableError } from '../../errors.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { EngineFileRef, EngineFrame, EngineJob, EngineSocket, ImageEngineClient, ImageEngineRuntime, ImageJobRows, ImageJobRunner, JobEvent } from './parts.js';
import { QUEUE_POLL_MS, STALL_MS, STALL_VIDEO_MS } from './schema.js';
import type { BuiltGraph } from './workflow-graph.js';

export const CRASH_SENTENCE = 'The picture engine stopped while drawing; it is starting again. Try once more.';
export const STALL_SENTENCE = 'The picture engine stopped making progress, so this picture was stopped. Try once more.';
export const STALL_CLIP_SENTENCE = 'The picture engine stopped making progress on this clip, so it was stopped. Try once more, perhaps in fast mode.';
export const FORGOTTEN_SENTENCE = 'The picture engine lost this picture (it may have restarted). Try once more.';
const CANCELLED = { code: 'cancelled', message: 'This picture was cancelled.' };

export interface ImageJobRunnerDeps {
  client: ImageEngineClient;
  runtime: ImageEngineRuntime;
  rows: ImageJobRows;
  /** DATA_DIR/images */
  imagesDir: string;
  logger: Logger;
  now: () => Date;
  stallMs?: number;
  stallVideoMs?: number;
  queuePollMs?: number;
}

interface Tracked {
  job: EngineJob;
  listeners: Set<(e: JobEvent) => void>;
  lastStep: Extract<JobEvent, { type: 'step' }> | null;
  preview: Buffer | null;
  previewStep: number;
  promptId: string | null;
  cancelled: boolean;
  /** Ends the running job at once (cancel). */
  abort: (() => void) | null;
  /** A turn lent to another module's work on the engine (music): run instead of a graph, no row of its own. */
  lease: (() => Promise<void>) | null;
}

type Outcome = { ok: true; ref: EngineFileRef } | { ok: false; code: string; message: string; restart?: string };

/** An execution_error as a sentence a person reads. */
export function executionErrorSentence(frame: Extract<EngineFrame, { type: 'execution_error' }>): string {
  const text = frame.message.split('\n')[0]?.trim() ?? '';
  if (/out of memory|OutOfMemory/i.test(frame.exceptionType + frame.message)) return 'The picture engine ran out of graphics memory. Try a smaller size or fast mode.';
  if (/No face detected/i.test(frame.message)) return 'No face was found in the picture. Try a photo where the face is clear and large.';
  if (/No module named/i.test(frame.message)) return `The picture engine is missing a Python package (${text}). An admin can see the engine log on the Picture engine admin page.`;
  return `The picture engine could not finish this picture${frame.nodeType ? ` (${frame.nodeType})` : ''}: ${text || frame.exceptionType}.`;
}

/** One frame's size of an animated WebP, or null when sharp cannot read it. */
async function frameSize(bytes: Buffer): Promise<{ width: number; height: number } | null> {
  const { default: sharp } = await import('sharp');
  const meta = await sharp(bytes, { pages: 1 }).metadata().catch(() => null);
  return meta?.width && meta.height ? { width: meta.width, height: meta.pageHeight ?? meta.height } : null;
}

export class EngineJobRunner implements ImageJobRunner {
  private readonly jobs = new Map<string, Tracked>();
  /** Waiting jobs per member, and the members in their turn order. */
  private readonly waiting = new Map<string, Tracked[]>();
  private turn: string[] = [];
  private current: Tracked | null = null;
  private loop: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly d: ImageJobRunnerDeps) {}

  enqueue(job: EngineJob): void {
    this.add({ job, listeners: new Set(), lastStep: null, preview: null, previewStep: 0, promptId: null, cancelled: false, abort: null, lease: null });
  }

  /**
   * Another module's work on the engine (a piece of music) in the same fair queue: `work` runs when
   * its turn comes, alone on the engine as a picture would be; `onWaiting` hears its place while it
   * waits. Rejects (503 with a sentence) when the queue stops before its turn.
   */
  lease<T>(userId: string, work: () => Promise<T>, onWaiting?: (position: number) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: EngineJob = {
        id: `lease-${randomUUID()}`,
        userId,
        pipeline: 'txt2img',
        inputs: {},
        build: () => {
          throw new Error('a lent turn builds no graph');
        },
      };
      const t: Tracked = { job, listeners: new Set(), lastStep: null, preview: null, previewStep: 0, promptId: null, cancelled: false, abort: null, lease: () => work().then(resolve, reject) };
      t.listeners.add((e) => {
        if (e.type === 'step' && e.position !== null && e.position > 0) onWaiting?.(e.position);
        if (e.type === 'error') reject(new ServiceUnavailableError(e.code, e.message));
      });
      this.add(t);
    });
  }

  private add(t: Tracked): void {
    const { job } = t;
    this.jobs.set(job.id, t);
    const list = this.waiting.get(job.userId) ?? [];
    list.push(t);
    this.waiting.set(job.userId, list);
    if (!this.turn.includes(job.userId)) this.turn.push(job.userId);
    this.announcePositions();
    this.kick();
  }

  subscribe(id: string, listener: (e: JobEvent) => void): (() => void) | null {
    const t = this.jobs.get(id);
    if (!t) return null;
    if (t.lastStep) listener(t.lastStep);
    if (t.preview) listener({ type: 'preview', jpeg: t.preview, step: t.previewStep });
    t.listeners.add(listener);
    return () => t.listeners.delete(listener);
  }

  /** Waiting jobs in the order they will run: one per member in turn. */
  private order(): Tracked[] {
    const queues = this.turn.map((u) => [...(this.waiting.get(u) ?? [])]);
    const out: Tracked[] = [];
    for (let round = 0; queues.some((q) => q.length > 0); round++) for (const q of queues) if (q.length > 0) out.push(q.shift()!);
    return out;
  }

  position(id: string): number | null {
    if (this.current?.job.id === id) return 0;
    const i = this.order().findIndex((t) => t.job.id === id);
    return i < 0 ? null : i + 1;
  }

  latestPreview(id: string): Buffer | null {
    return this.jobs.get(id)?.preview ?? null;
  }

  counts(): { running: number; waiting: number } {
    return { running: this.current ? 1 : 0, waiting: this.order().length };
  }

  private emit(t: Tracked, e: JobEvent): void {
    if (e.type === 'step') t.lastStep = e;
    for (const l of [...t.listeners]) {
      try {
        l(e);
      } catch (err) {
        this.d.logger.warn({ err, id: t.job.id }, 'a job listener failed');
      }
    }
  }

  private announcePositions(): void {
    this.order().forEach((t, i) => {
      if (t.lastStep?.position !== i + 1) this.emit(t, { type: 'step', current: 0, total: t.lastStep?.total ?? 0, position: i + 1 });
    });
  }

  private takeNext(): Tracked | null {
    while (this.turn.length > 0) {
      const user = this.turn.shift()!;
      const list = this.waiting.get(user) ?? [];
      const t = list.shift();
      if (list.length > 0) this.turn.push(user);
      else this.waiting.delete(user);
      if (t) return t;
    }
    return null;
  }

  private kick(): void {
    if (this.loop || this.stopped) return;
    this.loop = (async () => {
      for (let t = this.takeNext(); t && !this.stopped; t = this.takeNext()) {
        this.current = t;
        this.announcePositions();
        await this.runOne(t).catch((err: unknown) => this.d.logger.error({ err, id: t!.job.id }, 'image job failed unexpectedly'));
        this.current = null;
        this.jobs.delete(t.job.id);
      }
    })().finally(() => {
      this.loop = null;
      if (this.order().length > 0 && !this.stopped) this.kick();
    });
  }

  private async finishFailed(t: Tracked, code: string, message: string): Promise<void> {
    if (!t.lease) await this.d.rows.update(t.job.id, { state: code === 'cancelled' ? 'cancelled' : 'failed', error: code === 'cancelled' ? null : message, finishedAt: this.d.now().toISOString() }).catch((err: unknown) => this.d.logger.warn({ err }, 'could not update the image row'));
    this.emit(t, { type: 'error', code, message });
  }

  private async runOne(t: Tracked): Promise<void> {
    if (t.lease) return t.lease();
    const { job } = t;
    await this.d.rows.update(job.id, { state: 'building', startedAt: this.d.now().toISOString() });
    this.emit(t, { type: 'step', current: 0, total: 0, position: 0 });
    let socket: EngineSocket | null = null;
    try {
      await this.d.runtime.whenReady();
      if (t.cancelled) return await this.finishFailed(t, CANCELLED.code, CANCELLED.message);
      const uploaded: Record<string, string> = {};
      for (const [key, input] of Object.entries(job.inputs)) uploaded[key] = (await this.d.client.uploadImage(await readFile(input.path), input.fileName)).name;
      const built = job.build(uploaded);
      const total = built.samplers.reduce((n, s) => n + s.steps, 0);
      await this.d.rows.update(job.id, { stepCurrent: 0, stepTotal: total });
      this.emit(t, { type: 'step', current: 0, total, position: 0 });
      const clientId = randomUUID();
      socket = await this.d.client.connect(clientId);
      if (t.cancelled) return await this.finishFailed(t, CANCELLED.code, CANCELLED.message);
      const outcome = await this.follow(t, built, socket, clientId, total);
      if (!outcome.ok) {
        if (outcome.restart) await this.d.runtime.restart(outcome.restart).catch((err: unknown) => this.d.logger.warn({ err }, 'engine restart failed'));
        return await this.finishFailed(t, outcome.code, outcome.message);
      }
      const bytes = await this.d.client.view(outcome.ref);
      const ext = built.output;
      const rel = `${job.userId}/${job.id}.${ext}`;
      const file = resolveInside(this.d.imagesDir, rel);
      if (!file) throw new Error('output path outside the images folder');
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
      // a clip's size is what the engine wrote (one frame of the animated WebP)
      const size = ext === 'webp' ? await frameSize(bytes) : null;
      await this.d.rows.update(job.id, {
        state: 'ready',
        stepCurrent: total,
        stepTotal: total,
        outputPath: rel,
        contentType: ext === 'png' ? 'image/png' : 'image/webp',
        width: size?.width ?? built.width,
        height: size?.height ?? built.height,
        bytes: bytes.length,
        error: null,
        finishedAt: this.d.now().toISOString(),
      });
      const artifact = await this.d.rows.artifact(job.id);
      if (artifact) this.emit(t, { type: 'done', artifact });
    } catch (err) {
      if (t.cancelled) return await this.finishFailed(t, CANCELLED.code, CANCELLED.message);
      const status = (err as { status?: number }).status;
      const code = (err as { code?: unknown }).code;
      const message = typeof status === 'number' && status < 600 && typeof code === 'string' ? (err as Error).message : CRASH_SENTENCE;
      if (typeof code !== 'string') this.d.logger.warn({ err, id: job.id }, 'image job failed');
      await this.finishFailed(t, typeof code === 'string' ? code : 'image_engine_failed', message);
    } finally {
      socket?.close();
    }
  }

  /** Submits the graph and follows its frames to the end. */
  private follow(t: Tracked, built: BuiltGraph, socket: EngineSocket, clientId: string, total: number): Promise<Outcome> {
    const { client } = this.d;
    const clip = built.pipeline === 'video' || built.pipeline === 'i2v';
    const stallMs = clip ? (this.d.stallVideoMs ?? STALL_VIDEO_MS) : (this.d.stallMs ?? STALL_MS);
    const offsets = new Map<string, number>();
    let acc = 0;
    for (const s of built.samplers) {
      offsets.set(s.node, acc);
      acc += s.steps;
    }
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      let promptId: string | null = null;
      let ref: EngineFileRef | null = null;
      let step = 0;
      let missedPolls = 0;
      let stallTimer: NodeJS.Timeout | null = null;
      const poll = setInterval(() => {
        if (!promptId) return;
        client.queue().then(
          (q) => {
            if (promptId && (q.running.includes(promptId) || q.pending.includes(promptId))) missedPolls = 0;
            else if (++missedPolls >= 2) end({ ok: false, code: 'image_engine_lost_job', message: FORGOTTEN_SENTENCE });
          },
          () => undefined, // a broken engine shows as the socket closing
        );
      }, this.d.queuePollMs ?? QUEUE_POLL_MS);
      poll.unref();
      const end = (o: Outcome) => {
        if (settled) return;
        settled = true;
        clearInterval(poll);
        if (stallTimer) clearTimeout(stallTimer);
        t.abort = null;
        resolve(o);
      };
      const armStall = () => {
        if (stallTimer) clearTimeout(stallTimer);
        stallTimer = setTimeout(() => {
          if (promptId) void client.interrupt(promptId).catch(() => undefined); // best effort; the job ends either way
          end({ ok: false, code: 'image_engine_stalled', message: clip ? STALL_CLIP_SENTENCE : STALL_SENTENCE });
        }, stallMs);
        stallTimer.unref();
      };
      t.abort = () => {
        const id = promptId;
        if (id) {
          void (async () => {
            await client.deleteQueued([id]).catch(() => undefined);
            await client.interrupt(id).catch(() => undefined);
          })(); // cancelling does not wait for the engine
        }
        end({ ok: false, ...CANCELLED });
      };
      socket.onClose((error) => {
        if (error) end({ ok: false, code: 'image_engine_crashed', message: CRASH_SENTENCE, restart: `the connection broke while drawing (${error.message})` });
      });
      socket.onFrame((f) => {
        if (settled) return;
        if (f.type === 'preview') {
          if (!promptId) return;
          armStall();
          t.preview = f.bytes;
          t.previewStep = step;
          this.emit(t, { type: 'preview', jpeg: f.bytes, step });
          return;
        }
        if (f.type === 'status' || ('promptId' in f && f.promptId !== promptId)) return;
        armStall();
        switch (f.type) {
          case 'progress': {
            const offset = offsets.get(f.node);
            if (offset === undefined) return; // tiles of a decode or an upscale
            step = Math.min(total, offset + f.value);
            void this.d.rows.update(t.job.id, { stepCurrent: step }).catch(() => undefined); // the bar is also in memory
            this.emit(t, { type: 'step', current: step, total, position: 0 });
            return;
          }
          case 'executed': {
            if (f.node === built.outputNode) ref = f.output.images?.[0] ?? f.output.gifs?.[0] ?? null;
            return;
          }
          case 'execution_error':
            return end({ ok: false, code: 'image_engine_error', message: executionErrorSentence(f) });
          case 'execution_interrupted':
            return end(t.cancelled ? { ok: false, ...CANCELLED } : { ok: false, code: 'image_engine_interrupted', message: 'The picture engine stopped this picture. Try once more.' });
          case 'executing':
            if (f.node === null) end(ref ? { ok: true, ref } : { ok: false, code: 'image_engine_no_output', message: 'The picture engine finished without a picture. Try once more.' });
            return;
          default:
            return;
        }
      });
      client.submit(built.graph, clientId).then(
        (r) => {
          if ('refused' in r) {
            end({ ok: false, code: 'image_engine_refused', message: r.refused.message, restart: r.refused.missingClass ? `a node is missing (${r.refused.missingClass})` : undefined });
            return;
          }
          promptId = r.promptId;
          t.promptId = r.promptId;
          if (t.cancelled) return t.abort?.();
          armStall();
        },
        (err: unknown) => end({ ok: false, code: 'image_engine_crashed', message: CRASH_SENTENCE, restart: `the job could not be sent (${(err as Error).message})` }),
      );
    });
  }

  async cancel(id: string): Promise<boolean> {
    const t = this.jobs.get(id);
    if (!t) return false;
    t.cancelled = true;
    if (this.current === t) {
      t.abort?.();
      return true;
    }
    const list = this.waiting.get(t.job.userId);
    if (list) {
      const i = list.indexOf(t);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) {
        this.waiting.delete(t.job.userId);
        this.turn = this.turn.filter((u) => u !== t.job.userId);
      }
    }
    this.jobs.delete(id);
    await this.finishFailed(t, CANCELLED.code, CANCELLED.message);
    this.announcePositions();
    return true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const id of this.order().map((t) => t.job.id)) await this.cancel(id);
    if (this.current) await this.cancel(this.current.job.id);
    await this.loop?.catch(() => undefined);
  }
}
