// The three measures of a benchmark run, each on its own: one chat answer per installed chat model
// (Ollama's eval_count/eval_duration, and the wall time to the first piece), one small picture on a
// running image engine (seconds between its step events), and a bounded temporary file written and
// read back in the data folder (removed after, whatever happens).
import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { UserActor } from '../../actor.js';
import type { ModelRuntimeClient } from '../../adapters/model-runtime/ollama.js';
import { modelRuntimeAppError } from '../../adapter-errors/model-runtime.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { BenchmarkImagePorts } from './ports.js';
import type { ChatBenchmark, DiskBenchmark, ImageBenchmark } from './schema.js';

/** The same short question for every model: about a paragraph of answer. */
export const CHAT_PROMPT = 'In about sixty words, describe a quiet kitchen on a winter morning.';
export const CHAT_MAX_TOKENS = 96;
/** Three words for every four tokens, English text. */
export const WORDS_PER_TOKEN = 0.75;

const round1 = (n: number) => Math.round(n * 10) / 10;
const sentence = (err: unknown, fallback: string) => (err instanceof Error && err.message ? err.message : fallback);

/** The installed models that answer chat (completion, not embedding-only), as the runtime lists them. */
export async function chatModels(runtime: ModelRuntimeClient): Promise<string[]> {
  const models = await runtime.listModels();
  const out: string[] = [];
  for (const m of models) {
    const details = await runtime.show(m.name).catch(() => null);
    const caps = details?.capabilities ?? [];
    // an old runtime tells no capabilities: a model whose name says embed is left out
    if (caps.length ? caps.includes('completion') : !/embed/i.test(m.name)) out.push(m.name);
  }
  return out;
}

export async function measureChat(runtime: ModelRuntimeClient, model: string, signal: AbortSignal, timeoutMs = 180_000): Promise<ChatBenchmark> {
  const asked = performance.now();
  let first: number | null = null;
  try {
    const r = await runtime.chat({
      model,
      messages: [{ role: 'user', content: CHAT_PROMPT }],
      options: { temperature: 0, num_predict: CHAT_MAX_TOKENS },
      signal,
      timeoutMs,
      onDelta: () => {
        first ??= performance.now();
      },
    });
    const end = performance.now();
    const tokens = r.outputTokens;
    // Ollama's own timing of the answer when it gives one; otherwise the wall time after the first piece
    const seconds = r.evalDurationNs ? r.evalDurationNs / 1e9 : first !== null ? (end - first) / 1000 : null;
    const tps = tokens && seconds && seconds > 0 ? round1(tokens / seconds) : null;
    return { model, tokensPerSecond: tps, wordsPerSecond: tps === null ? null : round1(tps * WORDS_PER_TOKEN), firstTokenMs: first === null ? null : Math.round(first - asked), error: tps === null ? 'The model answered without saying how many tokens it wrote.' : null };
  } catch (err) {
    return { model, tokensPerSecond: null, wordsPerSecond: null, firstTokenMs: null, error: sentence(modelRuntimeAppError(err, { model }), 'The model did not answer.') };
  }
}

export const IMAGE_NOT_SET_UP = 'The image engine is not set up on this computer, so pictures were not measured.';
export const IMAGE_NOT_READY = 'The image engine was not running, so pictures were not measured. Open Pictures once (it starts the engine), then run the benchmark again.';
export const IMAGE_STEPS = 8;

/** One small picture (512 px, 8 steps) made as the admin who asked, timed between its step events, then deleted. */
export async function measureImage(image: BenchmarkImagePorts, actor: UserActor, signal: AbortSignal): Promise<ImageBenchmark> {
  const status = await image.engine.status();
  if (!status.configured) return { secondsPerStep: null, steps: null, skipped: IMAGE_NOT_SET_UP };
  if (status.state !== 'ready') return { secondsPerStep: null, steps: null, skipped: IMAGE_NOT_READY };
  let id: string | null = null;
  try {
    const queued = await image.generate.generate(actor, { pipeline: 'txt2img', prompt: 'a lighthouse on a rocky coast at dusk', width: 512, height: 512, steps: IMAGE_STEPS, fast: false });
    id = queued.artifact.id;
    const stamps: { step: number; at: number }[] = [];
    const ended = await new Promise<{ ok: boolean; message?: string }>((resolve) => {
      const stop = image.artifacts.attach(actor, queued.artifact.id, (e) => {
        if (e.type === 'step') stamps.push({ step: e.current, at: performance.now() });
        else if (e.type === 'done') resolve({ ok: true });
        else if (e.type === 'error') resolve({ ok: false, message: e.message });
      });
      signal.addEventListener('abort', () => resolve({ ok: false, message: 'The run was stopped.' }), { once: true });
      void stop.then((un) => signal.addEventListener('abort', () => un?.(), { once: true })).catch((err: unknown) => resolve({ ok: false, message: sentence(err, 'The picture could not be followed.') }));
    });
    if (!ended.ok) return { secondsPerStep: null, steps: null, skipped: ended.message ?? 'The picture could not be made.' };
    const a = stamps[0];
    const b = stamps.at(-1);
    if (!a || !b || b.step <= a.step) return { secondsPerStep: null, steps: null, skipped: 'The image engine did not report its steps, so they could not be timed.' };
    return { secondsPerStep: Math.round(((b.at - a.at) / 1000 / (b.step - a.step)) * 1000) / 1000, steps: b.step, skipped: null };
  } catch (err) {
    return { secondsPerStep: null, steps: null, skipped: sentence(err, 'The picture could not be made.') };
  } finally {
    if (id) await image.artifacts.delete(actor, id).catch(() => undefined);
  }
}

export const DISK_BYTES = 64 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/** Writes `bytes` to a temporary file in the data folder (flushed to the disk), reads it back, removes it. */
export async function measureDisk(dataDir: string, disk: DiskSpace, bytes = DISK_BYTES): Promise<DiskBenchmark> {
  const dir = path.join(dataDir, 'benchmarks');
  const file = path.join(dir, `disk-${randomUUID()}.tmp`);
  const chunk = Buffer.alloc(Math.min(CHUNK, bytes), 0x5a);
  try {
    await mkdir(dir, { recursive: true });
    await disk.ensureRoom(dir, bytes, { what: 'The disk benchmark' });
    const w = await open(file, 'w');
    const t0 = performance.now();
    try {
      for (let done = 0; done < bytes; done += chunk.length) await w.write(chunk, 0, Math.min(chunk.length, bytes - done));
      await w.sync();
    } finally {
      await w.close();
    }
    const writeS = (performance.now() - t0) / 1000;
    const r = await open(file, 'r');
    const into = Buffer.alloc(chunk.length);
    const t1 = performance.now();
    try {
      for (;;) {
        const { bytesRead } = await r.read(into, 0, into.length, null);
        if (bytesRead === 0) break;
      }
    } finally {
      await r.close();
    }
    const readS = (performance.now() - t1) / 1000;
    const mb = bytes / 1e6;
    return { writeMBps: round1(mb / Math.max(writeS, 1e-6)), readMBps: round1(mb / Math.max(readS, 1e-6)), bytes, error: null };
  } catch (err) {
    return { writeMBps: null, readMBps: null, bytes, error: sentence(err, 'The data folder could not be written.') };
  } finally {
    await rm(file, { force: true });
  }
}
