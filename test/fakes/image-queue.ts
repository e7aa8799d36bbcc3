// A stand-in for the image engine's parts behind the ports (parts.ts): a runtime that is ready, a
// client that answers the fixture's node list (with the packs a test chooses), and a household
// queue the test drives by hand — it records each job (its graph built as the real queue would,
// after "uploading" its inputs), replays the last step to a late subscriber, and on finish writes
// the picture and updates the row as the real queue does. For testing the service and routes
// on their own; the real queue and engine are tested against the fake ComfyUI.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { readObjectInfo } from '../../server/adapters/image-engine/object-info.js';
import type { EngineJob, EngineRuntimeStatus, ImageEngineClient, ImageEngineRuntime, ImageJobRunner, JobEvent } from '../../server/modules/image-gen/parts.js';
import type { ImageEngineParts } from '../../server/modules/image-gen/engine-admin-service.js';
import type { BuiltGraph } from '../../server/modules/image-gen/workflow-graph.js';
import { objectInfoAnswer } from '../fixtures/comfyui/index.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

export interface QueuedStandIn {
  job: EngineJob;
  graph: BuiltGraph;
  listeners: Set<(e: JobEvent) => void>;
  last: { step: JobEvent | null; preview: Buffer | null };
  ended: boolean;
}

export interface StandInQueue extends ImageJobRunner {
  jobs: QueuedStandIn[];
  cancelled: string[];
  emit(id: string, e: JobEvent): void;
  /** Writes the picture, marks the row ready and sends done. */
  finish(id: string): Promise<void>;
}

export interface StandInEngine {
  parts: ImageEngineParts;
  queue: StandInQueue;
  /** Which custom packs the node list has (default all). */
  packs: string[] | null;
  /** Set once the test server is up: where pictures go and the database. */
  attach(dataDir: string, db: Knex): void;
}

export function createStandInEngine(): StandInEngine {
  let dataDir = '';
  let db: Knex | null = null;
  const status: EngineRuntimeStatus = { state: 'ready', error: null, configured: true, external: true, since: new Date().toISOString() };
  const runtime: ImageEngineRuntime = {
    status: () => status,
    ensureStarted: () => undefined,
    whenReady: () => Promise.resolve(),
    restart: () => Promise.resolve(),
    logTail: () => Promise.resolve(['engine started']),
    stop: () => Promise.resolve(),
  };
  const engine: StandInEngine = {
    packs: null,
    parts: { runtime, client: null, runner: null },
    queue: null as unknown as StandInQueue,
    attach(dir, knex) {
      dataDir = dir;
      db = knex;
    },
  };
  const client = {
    objectInfo: () => Promise.resolve(readObjectInfo(objectInfoAnswer(engine.packs ?? undefined))),
    forget: () => undefined,
  } as unknown as ImageEngineClient;
  const find = (id: string) => queue.jobs.find((j) => j.job.id === id && !j.ended) ?? null;
  const send = (q: QueuedStandIn, e: JobEvent) => {
    if (e.type === 'step') q.last.step = e;
    if (e.type === 'preview') q.last.preview = e.jpeg;
    for (const l of [...q.listeners]) l(e);
    if (e.type === 'done' || e.type === 'error') {
      q.ended = true;
      q.listeners.clear();
    }
  };
  const queue: StandInQueue = {
    jobs: [],
    cancelled: [],
    enqueue(job) {
      const uploaded = Object.fromEntries(Object.keys(job.inputs).map((k) => [k, `${job.id}-${k}.png`]));
      queue.jobs.push({ job, graph: job.build(uploaded), listeners: new Set(), last: { step: null, preview: null }, ended: false });
    },
    subscribe(id, listener) {
      const q = find(id);
      if (!q) return null;
      if (q.last.step) listener(q.last.step);
      if (q.last.preview) listener({ type: 'preview', jpeg: q.last.preview, step: 0 });
      q.listeners.add(listener);
      return () => q.listeners.delete(listener);
    },
    async cancel(id) {
      const q = find(id);
      if (!q) return false;
      queue.cancelled.push(id);
      await db!('generated_images').where({ id }).update({ state: 'cancelled', finished_at: new Date().toISOString() });
      send(q, { type: 'error', code: 'cancelled', message: 'This picture was cancelled.' });
      return true;
    },
    position(id) {
      const waiting = queue.jobs.filter((j) => !j.ended);
      const i = waiting.findIndex((j) => j.job.id === id);
      return i < 0 ? null : i;
    },
    latestPreview: (id) => find(id)?.last.preview ?? null,
    counts() {
      const live = queue.jobs.filter((j) => !j.ended).length;
      return { running: Math.min(live, 1), waiting: Math.max(live - 1, 0) };
    },
    stop: () => Promise.resolve(),
    emit(id, e) {
      const q = find(id);
      if (!q) throw new Error(`no live job ${id}`);
      send(q, e);
    },
    async finish(id) {
      const q = find(id)!;
      const rel = `${q.job.userId}/${id}.png`;
      mkdirSync(path.join(dataDir, 'images', q.job.userId), { recursive: true });
      writeFileSync(path.join(dataDir, 'images', rel), PNG);
      await db!('generated_images').where({ id }).update({ state: 'ready', output_path: rel, content_type: 'image/png', width: 1, height: 1, bytes: PNG.length, finished_at: new Date().toISOString() });
      const row = (await db!('generated_images').where({ id }).first()) as Record<string, unknown>;
      send(q, {
        type: 'done',
        artifact: {
          id,
          kind: row.kind as 'generated',
          pipeline: row.pipeline as 'txt2img',
          state: 'ready',
          stepCurrent: Number(row.step_current),
          stepTotal: Number(row.step_total),
          position: null,
          isAdult: Boolean(row.is_adult),
          prompt: String(row.prompt),
          style: (row.style as 'anime' | null) ?? null,
          loras: JSON.parse(String(row.loras)) as { id: string; name: string; weight: number }[],
          width: 1,
          height: 1,
          used: usedOf(JSON.parse(String(row.params ?? '{}')) as Record<string, unknown>),
          contentType: 'image/png',
          url: `/api/image/artifacts/${id}`,
          error: null,
          sourceId: (row.source_id as string | null) ?? null,
          createdAt: String(row.created_at),
          finishedAt: String(row.finished_at),
        },
      });
    },
  };
  engine.queue = queue;
  engine.parts = { runtime, client, runner: queue };
  return engine;
}

/** The settings the row says a generation runs with (as ImageArtifactsService.view reads them). */
function usedOf(p: Record<string, unknown>): { width: number; height: number; steps: number; guidance: number } | null {
  const { width, height, steps, guidance } = p;
  return typeof width === 'number' && typeof height === 'number' && typeof steps === 'number' && typeof guidance === 'number' ? { width, height, steps, guidance } : null;
}
