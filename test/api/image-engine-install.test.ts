// The image engine's Python environment, for real: the runtime with the real sidecar supervisor, the
// real PythonEnvironment and a stand-in "python" (test/fixtures/python-standin.cjs, a node script
// made executable) that makes a venv and "pip installs" requirement files, slowly or failing as the
// files say; the stand-in engine (image-engine-standin.cjs) is then run by the venv's python.
// installing (with its progress sentence and the pip output in the engine log) → warming → ready; an
// unchanged install skips straight to warming; a changed one is rebuilt (at boot without starting
// the engine); a failed pip, a missing or too old Python are sentences that stay until a retry; a
// stop during pip kills it.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createComfyUiClient } from '../../server/adapters/image-engine/comfyui.js';
import type { ImageEngineLaunch } from '../../server/platform/image-engine-flags.js';
import { imageEngineDefinition, RotatingLineLog, type ImageEngineSidecarConfig } from '../../server/platform/sidecars/image-engine.js';
import { ENV_MARKER, PythonEnvironment } from '../../server/platform/sidecars/python-env.js';
import { ProcessSupervisor } from '../../server/platform/sidecars/supervisor.js';
import type { EngineState } from '../../server/modules/image-gen/schema.js';
import { ENGINE_MIN_PYTHON, EngineRuntime, IMAGE_ENGINE_DIR_KEY, IMAGE_ENGINE_PYTHON_KEY } from '../../server/modules/image-gen/runtime.js';
import { freePort, until } from '../harness/net.js';
import { startTestServer, type TestServer } from '../harness/start-server.js';
import { makePythonStandin } from '../harness/python-standin.js';
import { makeTempDir } from '../harness/temp-dir.js';

const ENGINE = path.resolve(import.meta.dirname, '../fixtures/image-engine-standin.cjs');
const LAUNCH = { target: 'cpu', dtype: 'fp32', args: ['--cpu', '--preview-method', 'auto'], env: {}, gpu: null, note: null } as unknown as ImageEngineLaunch;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A ComfyUI folder (the stand-in engine as main.py) with requirements.txt and one custom node pack's. */
function makeInstall(root: string, req: { base: string; pack: string }) {
  const dir = path.join(root, 'ComfyUI');
  mkdirSync(path.join(dir, 'custom_nodes', 'ComfyUI-Impact-Pack'), { recursive: true });
  mkdirSync(path.join(dir, 'custom_nodes', 'no-requirements'), { recursive: true });
  copyFileSync(ENGINE, path.join(dir, 'main.py'));
  writeFileSync(path.join(dir, 'standin.json'), JSON.stringify({ mode: 'ok' }));
  writeFileSync(path.join(dir, 'requirements.txt'), req.base);
  writeFileSync(path.join(dir, 'custom_nodes', 'ComfyUI-Impact-Pack', 'requirements.txt'), req.pack);
  return dir;
}

async function setup(opts: { req?: { base: string; pack: string }; version?: string; python?: string; dataDir?: string } = {}) {
  const tmp = makeTempDir('engine-install-');
  cleanups.push(() => tmp.remove());
  const dir = makeInstall(tmp.dir, opts.req ?? { base: 'torch\nnumpy\n', pack: 'segment-anything\n' });
  const standin = makePythonStandin(tmp.dir, { version: opts.version ?? '3.12.3' });
  const dataDir = opts.dataDir ?? path.join(tmp.dir, 'data');
  return { tmp, dir, standin, dataDir, start: () => startRuntime({ dir, python: opts.python ?? standin.python, dataDir }) };
}

async function startRuntime(o: { dir: string; python: string; dataDir: string }) {
  const port = await freePort();
  const client = createComfyUiClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 });
  const log = new RotatingLineLog(path.join(o.dataDir, 'logs', 'image-engine.log'), 64 * 1024);
  const supervisor = new ProcessSupervisor<ImageEngineSidecarConfig>(
    { ...imageEngineDefinition({ port, readinessTimeoutMs: 10_000, pollIntervalMs: 50, healthIntervalMs: 0, probe: async (signal) => (await client.systemStats(signal), true) }), stopGraceMs: 300 },
    log.asLogger(),
  );
  const environment = new PythonEnvironment({ venvDir: path.join(o.dataDir, 'image-engine', 'venv'), minVersion: ENGINE_MIN_PYTHON, log: (l) => log.write(l) });
  const settings = new Map<string, unknown>([
    [IMAGE_ENGINE_DIR_KEY, o.dir],
    [IMAGE_ENGINE_PYTHON_KEY, o.python],
  ]);
  const runtime = new EngineRuntime({ client, external: false, settings: { get: async <T,>(k: string) => settings.get(k) as T | undefined }, supervisor, launch: async () => LAUNCH, log, now: () => new Date(), environment });
  cleanups.push(() => runtime.stop());
  // the states the runtime passed through, in order, as often looked at (a brief one between two looks
  // may be missed, so the tests ask only for an order and for states never seen)
  const states: EngineState[] = [runtime.status().state];
  const look = () => {
    const s = runtime.status().state;
    if (states.at(-1) !== s) states.push(s);
    return states;
  };
  const timer = setInterval(look, 5);
  cleanups.push(() => clearInterval(timer));
  return { runtime, log, environment, supervisor, seen: look, venv: path.join(o.dataDir, 'image-engine', 'venv') };
}

/** `want` appears in `seen` in this order (other states may sit between). */
function inOrder(seen: string[], want: string[]): boolean {
  let at = 0;
  for (const w of want) {
    const i = seen.indexOf(w, at);
    if (i < 0) return false;
    at = i + 1;
  }
  return true;
}

const pipCalls = (calls: { args: string }[]) => calls.filter((c) => c.args.startsWith('-m pip install')).map((c) => c.args.slice(c.args.indexOf('-r ') + 3));

describe('the image engine install step', () => {
  it('makes the venv and installs the requirements with a progress sentence, then starts the engine from the venv; an unchanged install skips straight to warming', async () => {
    const s = await setup({ req: { base: 'torch\nhearth-standin-slow=1500\n', pack: 'segment-anything\n' } });
    const a = await s.start();
    a.runtime.ensureStarted();
    await until(() => a.runtime.status().progress === 'Installing what ComfyUI needs (1 of 2)…', 'the first pip install under way', 10_000);
    expect(a.runtime.status().state).toBe('installing');
    await a.runtime.whenReady();
    expect(inOrder(a.seen(), ['installing', 'warming', 'ready'])).toBe(true);
    expect(a.runtime.status()).toMatchObject({ state: 'ready', error: null, progress: null });

    const calls = s.standin.calls().map((c) => c.args);
    expect(calls[0]).toBe('--version');
    expect(calls[1]).toBe(`-m venv ${a.venv}`);
    expect(pipCalls(s.standin.calls())).toEqual([path.join(s.dir, 'requirements.txt'), path.join(s.dir, 'custom_nodes', 'ComfyUI-Impact-Pack', 'requirements.txt')]);
    // the engine runs from the venv's python, not the chosen one
    expect(calls.at(-1)).toMatch(/^main\.py --listen 127\.0\.0\.1 --port \d+/);
    expect(s.standin.calls().at(-1)!.pid).toBe(a.supervisor.status().pid);
    const log = (await a.runtime.logTail(200)).join('\n');
    expect(log).toContain('Collecting torch');
    expect(log).toContain('Collecting segment-anything');
    expect(log).toContain('stand-in engine starting');
    expect(existsSync(path.join(a.venv, ENV_MARKER))).toBe(true);
    await a.runtime.stop();

    // the same install again (a new start of Hearth): nothing to install
    const before = s.standin.calls().length;
    const b = await startRuntime({ dir: s.dir, python: s.standin.python, dataDir: s.dataDir });
    await b.runtime.whenReady();
    expect(b.seen()).not.toContain('installing');
    expect(b.seen().at(-1)).toBe('ready');
    expect(s.standin.calls().slice(before).map((c) => c.args)).toEqual([expect.stringMatching(/^main\.py /)]);
  });

  it('rebuilds an outdated environment at boot without starting the engine, and keeps the venv when only a requirement file changed', async () => {
    const s = await setup();
    const a = await s.start();
    expect(await a.runtime.prepareIfOutdated()).toBe('rebuilding');
    await until(() => a.seen().join() === 'idle,installing,idle', 'the install done', 10_000);
    expect(a.supervisor.status().state).toBe('idle');
    expect(await a.runtime.prepareIfOutdated()).toBe('current');

    // an updated node pack: its requirements changed
    writeFileSync(path.join(s.dir, 'custom_nodes', 'ComfyUI-Impact-Pack', 'requirements.txt'), 'segment-anything\nultralytics\n');
    const before = s.standin.calls().length;
    expect(await a.runtime.prepareIfOutdated()).toBe('rebuilding');
    await until(() => a.seen().join() === 'idle,installing,idle,installing,idle', 'the second install done', 10_000);
    const again = s.standin.calls().slice(before).map((c) => c.args);
    expect(again.some((c) => c.includes('-m venv'))).toBe(false);
    expect(again.filter((c) => c.startsWith('-m pip install'))).toHaveLength(2);
    expect(readFileSync(path.join(a.venv, ENV_MARKER), 'utf8')).toContain('ComfyUI-Impact-Pack');
  });

  it('fails with a sentence when pip fails, keeps pip’s last lines in the log, does not run pip again on a look, and installs again on retry', async () => {
    const s = await setup({ req: { base: 'torch\n', pack: 'hearth-standin-fail\n' } });
    const a = await s.start();
    const err = await a.runtime.whenReady().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 503, code: 'image_engine_unavailable' });
    const st = a.runtime.status();
    expect(st.state).toBe('failed');
    expect(st.error).toBe(
      `Installing what the image engine needs failed (${path.join('custom_nodes', 'ComfyUI-Impact-Pack', 'requirements.txt')}). The last lines of the engine’s log on the Image engine page say why: often this computer is offline, or a package does not fit this Python. Fix that, then try again.`,
    );
    expect(st.error).not.toMatch(/Error:|at .*\.ts|exit code/);
    const log = (await a.runtime.logTail(20)).join('\n');
    expect(log).toContain('ERROR: No matching distribution found for hearth-standin-fail');
    expect(a.supervisor.status().state).toBe('idle');

    // a look at the status (or a member asking for a picture) does not run pip again
    const before = s.standin.calls().length;
    a.runtime.ensureStarted();
    await expect(a.runtime.whenReady()).rejects.toMatchObject({ code: 'image_engine_unavailable' });
    expect(s.standin.calls()).toHaveLength(before);

    // the admin fixes the pack and retries
    writeFileSync(path.join(s.dir, 'custom_nodes', 'ComfyUI-Impact-Pack', 'requirements.txt'), 'segment-anything\n');
    await a.runtime.restart('an admin asked to try again');
    await a.runtime.whenReady();
    expect(a.runtime.status()).toMatchObject({ state: 'ready', error: null });
  });

  it('says so when the Python is missing or too old, and never starts the engine', async () => {
    const missing = await setup({ python: '/nonexistent/bin/python3' });
    const a = await missing.start();
    await expect(a.runtime.whenReady()).rejects.toMatchObject({
      message: `Hearth could not run Python at “/nonexistent/bin/python3”. Install Python 3.10 or newer on this computer, or enter the full path of one under Python on the Image engine page, then try again.`,
    });
    expect(a.supervisor.status().state).toBe('idle');

    const old = await setup({ version: '3.8.10' });
    const b = await old.start();
    await expect(b.runtime.whenReady()).rejects.toMatchObject({ message: expect.stringContaining('is version 3.8.10; the image engine needs 3.10 or newer') as unknown });
    expect(old.standin.calls().map((c) => c.args)).toEqual(['--version']);
  });

  it('kills a pip under way when Hearth stops', async () => {
    const s = await setup({ req: { base: 'hearth-standin-slow=60000\n', pack: 'x\n' } });
    const a = await s.start();
    a.runtime.ensureStarted();
    const pip = await until(() => s.standin.calls().find((c) => c.args.startsWith('-m pip install')), 'pip running', 10_000);
    expect(alive(pip.pid)).toBe(true);
    await a.runtime.stop();
    expect(a.runtime.status().state).toBe('idle');
    await until(() => !alive(pip.pid), 'pip gone', 5_000);
    expect(existsSync(path.join(a.venv, ENV_MARKER))).toBe(false);
  });
});

describe('the install step over HTTP (the admin engine page, the status, boot)', () => {
  it('shows installing with its progress, a failure in a sentence with pip’s lines in the log, retries for admins only, stops pip on close, and rebuilds a changed install at boot', async () => {
    const tmp = makeTempDir('engine-install-http-');
    cleanups.push(() => tmp.remove());
    const dir = makeInstall(tmp.dir, { base: 'torch\n', pack: 'hearth-standin-fail\n' });
    const packReq = path.join(dir, 'custom_nodes', 'ComfyUI-Impact-Pack', 'requirements.txt');
    const standin = makePythonStandin(tmp.dir);
    const dataDir = path.join(tmp.dir, 'data');
    mkdirSync(dataDir);
    const servers: TestServer[] = [];
    cleanups.push(async () => {
      for (const srv of servers.splice(0)) await srv.close();
    });
    const s = await startTestServer({ seed: 'household', dataDir });
    servers.push(s);
    const engine = async () => (await s.admin.get('/api/admin/image-engine')).body as { status: { state: string; error: string | null; progress: string | null } };

    expect((await s.admin.put('/api/admin/image-engine', { installDir: dir, python: standin.python })).status).toBe(200);
    const failed = await until(async () => ((await engine()).status.state === 'failed' ? engine() : null), 'the install failed', 15_000);
    expect(failed.status.error).toMatch(/^Installing what the image engine needs failed \(custom_nodes\/ComfyUI-Impact-Pack\/requirements\.txt\)\./);
    expect(failed.status.progress).toBeNull();
    const logs = await s.admin.get('/api/admin/image-engine/logs?lines=50');
    expect(logs.body.lines.join('\n')).toContain('ERROR: No matching distribution found for hearth-standin-fail');
    // a member's Create page hears the same sentence
    expect((await s.member.get('/api/image/status')).body).toMatchObject({ state: 'failed', error: failed.status.error, progress: null });

    expect((await s.anon.post('/api/admin/image-engine/retry', {})).status).toBe(401);
    expect((await s.member.post('/api/admin/image-engine/retry', {})).status).toBe(403);
    const pipsBefore = pipCalls(standin.calls()).length;
    writeFileSync(packReq, 'hearth-standin-slow=60000\n');
    const retry = await s.admin.post('/api/admin/image-engine/retry', {});
    expect(retry.status).toBe(200);
    expect(['warming', 'installing']).toContain(retry.body.status.state);
    const installing = await until(async () => ((await engine()).status.progress === 'Installing what the node pack ComfyUI-Impact-Pack needs (2 of 2)…' ? engine() : null), 'the second pip', 15_000);
    expect(installing.status).toMatchObject({ state: 'installing', error: null });
    await until(() => pipCalls(standin.calls()).length === pipsBefore + 2, 'both requirement files installed again', 10_000);
    const pip = standin.calls().at(-1)!;
    expect(alive(pip.pid)).toBe(true);
    await servers.pop()!.close();
    await until(() => !alive(pip.pid), 'pip stopped with Hearth', 5_000);

    // Hearth starts again after the pack was updated: boot rebuilds its environment, without starting the engine
    writeFileSync(packReq, 'segment-anything\n');
    const again = await startTestServer({ dataDir });
    servers.push(again);
    expect(again.handle.deps.boot.steps().find((st) => st.key === 'image')).toMatchObject({ status: 'warn', detail: expect.stringContaining('setting up its Python environment again') as unknown });
    await until(() => existsSync(path.join(dataDir, 'image-engine', 'venv', ENV_MARKER)), 'the rebuilt environment', 15_000);
    expect(standin.calls().some((c) => c.args.startsWith('main.py'))).toBe(false);
  });
});
