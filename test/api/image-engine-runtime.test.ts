// The engine runtime with the real sidecar supervisor and a stand-in engine program (a node script
// run as the engine's main.py): a slow start becomes ready, a start past the deadline fails with a
// sentence, a crash is restarted, the engine's output lands in its rotated log, no folder set up
// is a sentence, and IMAGE_ENGINE_URL is only polled.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createComfyUiClient } from '../../server/adapters/image-engine/comfyui.js';
import type { ImageEngineLaunch } from '../../server/platform/image-engine-flags.js';
import { createMemoryLogger } from '../../server/platform/logger.js';
import { imageEngineDefinition, RotatingLineLog, type ImageEngineSidecarConfig } from '../../server/platform/sidecars/image-engine.js';
import { ProcessSupervisor } from '../../server/platform/sidecars/supervisor.js';
import { EngineRuntime, IMAGE_ENGINE_DIR_KEY, IMAGE_ENGINE_PYTHON_KEY, NOT_SET_UP } from '../../server/modules/image-gen/runtime.js';
import { startFakeImageEngine } from '../fakes/image-engine.js';
import { freePort, until } from '../harness/net.js';
import { makeTempDir } from '../harness/temp-dir.js';

const STANDIN = path.resolve(import.meta.dirname, '../fixtures/image-engine-standin.cjs');
const LAUNCH: ImageEngineLaunch = { target: 'cpu', dtype: 'fp32', args: ['--cpu', '--preview-method', 'auto'], env: {}, gpu: null, note: null } as unknown as ImageEngineLaunch;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(standin: Record<string, unknown> | null, opts: { deadlineMs?: number; dir?: string | null } = {}) {
  const tmp = makeTempDir('engine-runtime-');
  cleanups.push(() => tmp.remove());
  const dir = path.join(tmp.dir, 'ComfyUI');
  if (standin) {
    (await import('node:fs')).mkdirSync(dir);
    copyFileSync(STANDIN, path.join(dir, 'main.py'));
    writeFileSync(path.join(dir, 'standin.json'), JSON.stringify(standin));
  }
  const port = await freePort();
  const client = createComfyUiClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 });
  const log = new RotatingLineLog(path.join(tmp.dir, 'logs', 'image-engine.log'), 4096);
  const supervisor = new ProcessSupervisor<ImageEngineSidecarConfig>(
    {
      ...imageEngineDefinition({ port, readinessTimeoutMs: opts.deadlineMs ?? 5000, pollIntervalMs: 50, healthIntervalMs: 200, probe: async (signal) => (await client.systemStats(signal), true) }),
      stopGraceMs: 300,
    },
    log.asLogger(),
  );
  const settings = new Map<string, unknown>(opts.dir === null ? [] : [[IMAGE_ENGINE_DIR_KEY, opts.dir ?? dir], [IMAGE_ENGINE_PYTHON_KEY, process.execPath]]);
  const runtime = new EngineRuntime({ client, external: false, settings: { get: async <T,>(k: string) => settings.get(k) as T | undefined }, supervisor, launch: async () => LAUNCH, log, now: () => new Date() });
  cleanups.push(() => runtime.stop());
  return { runtime, supervisor, dir, log, port };
}

describe('the image engine runtime', () => {
  it('starts the engine lazily with the launch flags, waits out a slow start, and keeps its output in the log', async () => {
    const { runtime, dir, port } = await setup({ mode: 'ok', delayMs: 600 });
    expect(runtime.status().state).toBe('idle');
    runtime.ensureStarted();
    await until(() => runtime.status().state === 'warming', 'warming', 5_000);
    await runtime.whenReady();
    expect(runtime.status()).toMatchObject({ state: 'ready', configured: true, external: false, error: null });
    const lines = await runtime.logTail(10);
    expect(lines.join('\n')).toContain(`stand-in engine starting: --listen 127.0.0.1 --port ${port}`);
    expect(lines.join('\n')).toContain('--preview-method auto');
    expect(lines.join('\n')).toContain('a line on stderr');
    expect(readFileSync(path.join(dir, 'starts.log'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('fails with a sentence when the engine does not answer health within the deadline', async () => {
    const { runtime } = await setup({ mode: 'unhealthy' }, { deadlineMs: 800 });
    const err = await runtime.whenReady().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, code: 'image_engine_unavailable' });
    expect(runtime.status().state).toBe('failed');
    expect(runtime.status().error).toMatch(/did not become ready within 1 s/);
  });

  it('restarts the engine after it dies, and restart() starts it again on demand', async () => {
    const { runtime, dir, supervisor } = await setup({ mode: 'die', dieAfterMs: 300 });
    await runtime.whenReady();
    await until(() => readFileSync(path.join(dir, 'starts.log'), 'utf8').trim().split('\n').length >= 2, 'a restart after the crash', 10_000);
    await until(() => supervisor.status().restarts >= 1, 'the restart count', 10_000);
    await runtime.restart('a broken pipe');
    expect(['warming', 'ready']).toContain(runtime.status().state);
  });

  it('says how to set it up when no folder is chosen, or the folder has no main.py', async () => {
    const none = await setup(null, { dir: null });
    await expect(none.runtime.whenReady()).rejects.toMatchObject({ status: 503, message: NOT_SET_UP });
    expect(none.runtime.status()).toMatchObject({ state: 'idle', configured: false });
    const empty = await setup(null, { dir: '/nonexistent/ComfyUI' });
    await expect(empty.runtime.whenReady()).rejects.toMatchObject({ message: expect.stringContaining('has no main.py') as unknown });
  });

  it('only polls an external engine (IMAGE_ENGINE_URL), never spawns', async () => {
    const engine = await startFakeImageEngine({ startDelayMs: 500 });
    cleanups.push(() => engine.close());
    const client = createComfyUiClient({ baseUrl: engine.url, timeoutMs: 500 });
    const supervisor = new ProcessSupervisor<ImageEngineSidecarConfig>(imageEngineDefinition({ port: 1, readinessTimeoutMs: 100, probe: async () => false }), createMemoryLogger());
    let applied = 0;
    const spy = { apply: async () => void applied++, status: () => supervisor.status(), onChange: (l: Parameters<typeof supervisor.onChange>[0]) => supervisor.onChange(l), stop: () => supervisor.stop() };
    const runtime = new EngineRuntime({ client, external: true, settings: { get: async () => undefined }, supervisor: spy, launch: async () => LAUNCH, log: { tail: () => [] }, now: () => new Date(), pollMs: 50 });
    cleanups.push(() => runtime.stop());
    await runtime.whenReady();
    expect(runtime.status()).toMatchObject({ state: 'ready', external: true, configured: true });
    expect(applied).toBe(0);
  });
});

describe('the rotated engine log', () => {
  it('moves the file aside past its size and tails across both', () => {
    const tmp = makeTempDir('engine-log-');
    cleanups.push(() => tmp.remove());
    const log = new RotatingLineLog(path.join(tmp.dir, 'logs', 'e.log'), 200);
    for (let i = 0; i < 20; i++) log.write(`line ${i}`);
    expect(readFileSync(`${log.file}.1`, 'utf8')).toContain('line ');
    expect(log.tail(3).map((l) => l.split(' ').slice(1).join(' '))).toEqual(['line 17', 'line 18', 'line 19']);
  });
});
