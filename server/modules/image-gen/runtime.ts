// The image engine's process as image generation sees it (ImageEngineRuntime, parts.ts): idle until
// first needed, then warming until GET /system_stats answers, then ready, or failed with a sentence
// saying what to do. With IMAGE_ENGINE_URL set the engine is someone else's: Hearth never spawns
// it and only polls its health. Otherwise the household's ComfyUI folder and Python come from the
// app settings (IMAGE_ENGINE_DIR_KEY, IMAGE_ENGINE_PYTHON_KEY, written from the admin page) and the
// sidecar supervisor runs it (platform/sidecars/image-engine.ts).
//
// Before the supervisor starts the household's ComfyUI, its Python environment is prepared
// (`environment`, platform/sidecars/python-env.ts): a venv of Hearth's own under
// DATA_DIR/image-engine/venv made with the chosen Python, with `pip install -r` of the install's
// requirements.txt and each custom node pack's. The state is `installing` meanwhile, with a progress
// sentence; the output goes to the engine's log. An unchanged install (the venv's marker matches)
// goes straight to warming. A failed install stays failed with a sentence until an admin retries
// or changes the folder or Python (restart), so a look at the status never runs pip again by itself.
//
// While the engine is ready the runtime keeps a connection (WebSocket) to it open. When that drops
// and comes back the engine may have restarted with other custom nodes (an external one restarted by
// its owner, a supervised one after a crash), so the node list (object_info) is forgotten on every
// drop and every connect, and the next status or job reads it again.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ServiceUnavailableError } from '../../errors.js';
import { sleep } from '../../platform/sleep.js';
import type { ImageEngineLaunch } from '../../platform/image-engine-flags.js';
import type { ImageEngineSidecarConfig } from '../../platform/sidecars/image-engine.js';
import { PythonEnvError, type PythonEnvFailure, type PythonEnvironment, type PythonEnvStep } from '../../platform/sidecars/python-env.js';
import type { SidecarStatus } from '../../platform/sidecars/supervisor.js';
import type { EngineRuntimeStatus, ImageEngineClient, ImageEngineRuntime } from './parts.js';
import { ENGINE_READY_DEADLINE_MS, type EngineState } from './schema.js';

/** App settings (server/db/kv.ts) holding the household's engine install. */
export const IMAGE_ENGINE_DIR_KEY = 'image_engine_dir';
export const IMAGE_ENGINE_PYTHON_KEY = 'image_engine_python';

export const NOT_SET_UP = 'The picture engine is not set up yet. An admin can choose its ComfyUI folder on the Picture engine admin page.';
const STOPPED_SENTENCE = 'The picture engine stopped. It starts again when someone makes a picture.';
/** The oldest Python the engine's environment is made with (ComfyUI needs 3.10 or newer). */
export const ENGINE_MIN_PYTHON = [3, 10] as const;

/** What the boot step learns from prepareIfOutdated(). */
export type EnvironmentCheck = 'external' | 'not-set-up' | 'current' | 'rebuilding' | 'busy';

/** The part of ProcessSupervisor the runtime uses. */
export interface EngineSupervisor {
  apply(config: ImageEngineSidecarConfig): Promise<void>;
  status(): SidecarStatus;
  onChange(listener: (s: SidecarStatus) => void): () => void;
  stop(): Promise<void>;
}

export interface ImageEngineRuntimeDeps {
  client: Pick<ImageEngineClient, 'systemStats' | 'forget' | 'connect'>;
  /** IMAGE_ENGINE_URL: poll this engine's health, never spawn. */
  external: boolean;
  settings: { get<T = unknown>(key: string): Promise<T | undefined> };
  supervisor: EngineSupervisor;
  /** The hardware-fit launch (probeImageEngineLaunch). */
  launch: () => Promise<ImageEngineLaunch>;
  /** The engine's own log (RotatingLineLog). */
  log: { tail(lines: number): string[]; write?(line: string): void };
  now: () => Date;
  readyDeadlineMs?: number;
  /** How often an external engine's health is polled while warming, and the watch connection retried while it is down. */
  pollMs?: number;
  /** The engine's own Python environment (python-env.ts); without one the chosen Python runs main.py as it is. */
  environment?: Pick<PythonEnvironment, 'isCurrent' | 'prepare' | 'pythonPath'>;
}

export class EngineRuntime implements ImageEngineRuntime {
  private state: EngineState = 'idle';
  private error: string | null = null;
  private configured = false;
  private since: Date;
  private readonly waiters = new Set<() => void>();
  private starting: Promise<void> | null = null;
  private stopped = false;
  private readonly unsubscribe: () => void;
  /** While installing: the sentence for what is being done now. */
  private progress: string | null = null;
  private installAbort: AbortController | null = null;
  /** The last install failed: only restart() (an admin's retry or new settings) runs it again. */
  private installFailed = false;
  /** ensureStarted() was called while a boot-time install ran: start the engine after it. */
  private launchWanted = false;
  /** Told when an install begins (restart() resolves then rather than after pip). */
  private onInstalling: (() => void) | null = null;
  /** The connection kept open while ready (its loop reconnects after a drop); aborted when the engine is not ready. */
  private watchAbort: AbortController | null = null;

  constructor(private readonly d: ImageEngineRuntimeDeps) {
    this.since = d.now();
    this.configured = d.external;
    this.unsubscribe = d.supervisor.onChange((s) => {
      if (d.external || this.stopped) return;
      if (s.state === 'ready') this.set('ready');
      else if (s.state === 'starting') this.set('warming');
      else if (s.state === 'failed') this.set('failed', s.error ?? 'The picture engine could not start.');
    });
  }

  status(): EngineRuntimeStatus {
    return { state: this.state, error: this.error, configured: this.configured, external: this.d.external, since: this.since.toISOString(), progress: this.state === 'installing' ? this.progress : null };
  }

  private set(state: EngineState, error: string | null = null): void {
    if (state !== this.state || error !== this.error) {
      this.state = state;
      this.error = error;
      this.since = this.d.now();
    }
    if (state === 'ready' && !this.stopped) this.startWatch();
    else this.stopWatch();
    for (const w of [...this.waiters]) w();
  }

  private startWatch(): void {
    if (this.watchAbort) return;
    const abort = new AbortController();
    this.watchAbort = abort;
    void this.watch(abort.signal).catch(() => undefined);
  }

  private stopWatch(): void {
    this.watchAbort?.abort();
    this.watchAbort = null;
  }

  /**
   * Keeps a connection to the ready engine: the node list is forgotten each time one opens (the
   * engine may have restarted with other nodes since it was read) and each time one drops, and a
   * dropped connection is retried every pollMs until the engine answers again or is not ready.
   */
  private async watch(signal: AbortSignal): Promise<void> {
    const every = this.d.pollMs ?? 1000;
    while (!signal.aborted) {
      let socket: Awaited<ReturnType<ImageEngineClient['connect']>>;
      try {
        socket = await this.d.client.connect(`hearth-watch-${randomUUID()}`, signal);
      } catch {
        await sleep(every, signal);
        continue;
      }
      if (signal.aborted) return socket.close();
      this.d.client.forget();
      await new Promise<void>((resolve) => {
        const onAbort = () => socket.close();
        socket.onClose(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
        signal.addEventListener('abort', onAbort, { once: true });
      });
      this.d.client.forget();
    }
  }

  ensureStarted(): void {
    if (this.stopped) this.stopped = false;
    // someone wants the engine: a boot-time install under way starts it when done
    this.launchWanted = true;
    if (this.state === 'ready' || this.state === 'warming' || this.state === 'installing' || this.starting) return;
    if (this.state === 'failed' && this.installFailed) return;
    this.starting = this.start().finally(() => (this.starting = null));
    // the start reports through set(); its own failure is already a state
    void this.starting.catch(() => undefined);
  }

  private async install(python: string, dir: string): Promise<string | null> {
    const env = this.d.environment!;
    const abort = new AbortController();
    this.installAbort = abort;
    this.installFailed = false;
    this.progress = 'Checking Python…';
    this.set('installing');
    this.onInstalling?.();
    this.d.log.write?.('Hearth sets up the engine’s Python environment (it is new, or ComfyUI or a node pack changed)');
    try {
      // the old engine runs from this environment: it stops while pip changes it
      if (this.d.supervisor.status().state !== 'idle') await this.d.supervisor.stop();
      return await env.prepare(python, dir, {
        signal: abort.signal,
        onStep: (s) => {
          this.progress = stepSentence(s);
          for (const w of [...this.waiters]) w();
        },
      });
    } catch (err) {
      if (abort.signal.aborted || this.stopped) return null;
      this.installFailed = true;
      if (!(err instanceof PythonEnvError)) this.d.log.write?.(`Hearth could not set up the environment: ${(err as Error).message}`);
      this.set('failed', err instanceof PythonEnvError ? failureSentence(err.failure) : 'Setting up the image engine failed. The last lines of its log on the Image engine page say why.');
      return null;
    } finally {
      if (this.installAbort === abort) this.installAbort = null;
      this.progress = null;
    }
  }

  private async settingsNow(): Promise<{ dir: string | null; python: string }> {
    const [dir, python] = await Promise.all([this.d.settings.get<string>(IMAGE_ENGINE_DIR_KEY), this.d.settings.get<string>(IMAGE_ENGINE_PYTHON_KEY)]);
    this.configured = typeof dir === 'string' && dir !== '';
    return { dir: this.configured ? dir! : null, python: typeof python === 'string' && python !== '' ? python : 'python3' };
  }

  /** `launchEngine` false: only bring the environment up to date (boot), then stay idle. */
  private async start(launchEngine = true): Promise<void> {
    this.launchWanted = false;
    if (launchEngine) this.set('warming');
    this.d.client.forget();
    if (this.d.external) return this.pollExternal();
    const { dir, python } = await this.settingsNow();
    if (dir === null) return this.set('idle', NOT_SET_UP);
    let enginePython = python;
    // a folder without main.py is not prepared: the supervisor's launch says what is wrong
    if (this.d.environment && existsSync(path.join(dir, 'main.py'))) {
      if (this.d.environment.isCurrent(python, dir)) enginePython = this.d.environment.pythonPath();
      else {
        const prepared = await this.install(python, dir);
        if (prepared === null) return;
        enginePython = prepared;
      }
    }
    if (this.stopped) return;
    if (!launchEngine && !this.launchWanted) return this.set('idle');
    this.set('warming');
    const launch = await this.d.launch();
    if (this.stopped) return;
    await this.d.supervisor.apply({ dir, python: enginePython, launch });
    const s = this.d.supervisor.status();
    if (s.state === 'ready') this.set('ready');
    else if (s.state === 'failed') this.set('failed', s.error ?? 'The picture engine could not start.');
  }

  private async pollExternal(): Promise<void> {
    const deadline = Date.now() + (this.d.readyDeadlineMs ?? ENGINE_READY_DEADLINE_MS);
    const every = this.d.pollMs ?? 1000;
    while (!this.stopped) {
      try {
        await this.d.client.systemStats(AbortSignal.timeout(Math.max(every, 2000)));
        return this.set('ready');
      } catch {
        if (Date.now() >= deadline) return this.set('failed', 'The picture engine Hearth was started with is not answering. Check that it is running on its computer, then try again.');
      }
      await new Promise((r) => setTimeout(r, every));
    }
  }

  async whenReady(signal?: AbortSignal): Promise<void> {
    this.ensureStarted();
    for (;;) {
      signal?.throwIfAborted();
      if (this.state === 'ready') return;
      if (this.state === 'failed' || (this.state === 'idle' && !this.starting)) {
        throw new ServiceUnavailableError('image_engine_unavailable', this.error ?? (this.configured ? STOPPED_SENTENCE : NOT_SET_UP));
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          this.waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.add(done);
        signal?.addEventListener('abort', done, { once: true });
        // a start that ends without changing state (not set up) wakes the waiter too
        void this.starting?.finally(done);
      });
    }
  }

  /**
   * Starts the engine again (the supervisor's apply stops the old process first); `reason` goes to
   * the engine's log. An install under way is stopped and starts over. Resolves when the engine is
   * ready or failed, or as soon as its environment is being installed (which can take many minutes).
   */
  async restart(reason: string): Promise<void> {
    this.installAbort?.abort();
    if (this.starting) await this.starting.catch(() => undefined);
    this.d.log.write?.(`Hearth restarts the engine: ${reason}`);
    this.stopped = false;
    this.installFailed = false;
    const installing = new Promise<void>((resolve) => (this.onInstalling = resolve));
    const starting = this.start().finally(() => {
      this.starting = null;
      this.onInstalling = null;
    });
    this.starting = starting;
    if (!this.d.external) await Promise.race([starting.catch(() => undefined), installing]);
  }

  /**
   * At boot: an engine folder whose Python environment is out of date (ComfyUI or a node pack was
   * updated) has it rebuilt now, in the background, without starting the engine.
   */
  async prepareIfOutdated(): Promise<EnvironmentCheck> {
    if (this.d.external) return 'external';
    const { dir, python } = await this.settingsNow();
    if (dir === null) return 'not-set-up';
    if (!this.d.environment || !existsSync(path.join(dir, 'main.py')) || this.d.environment.isCurrent(python, dir)) return 'current';
    if (this.starting || this.state !== 'idle') return 'busy';
    this.starting = this.start(false).finally(() => (this.starting = null));
    // the install reports through set(); its own failure is already a state
    void this.starting.catch(() => undefined);
    return 'rebuilding';
  }

  logTail(lines: number): Promise<string[]> {
    return Promise.resolve(this.d.log.tail(lines));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.installAbort?.abort();
    this.unsubscribe();
    if (!this.d.external) await this.d.supervisor.stop();
    // an install stops with its pip (tree-kill); a start that was about to launch does not
    if (this.starting) await this.starting.catch(() => undefined);
    this.set('idle');
  }
}

function stepSentence(s: PythonEnvStep): string {
  if (s.step === 'python') return 'Checking Python…';
  if (s.step === 'venv') return 'Making the image engine’s own Python environment…';
  const of = s.total > 1 ? ` (${s.index} of ${s.total})` : '';
  const pack = s.file.split(/[\\/]/).at(-2);
  return s.file === 'requirements.txt' ? `Installing what ComfyUI needs${of}…` : `Installing what the node pack ${pack} needs${of}…`;
}

function failureSentence(f: PythonEnvFailure): string {
  const min = ENGINE_MIN_PYTHON.join('.');
  switch (f.kind) {
    case 'python_missing':
      return `Hearth could not run Python at “${f.python}”. Install Python ${min} or newer on this computer, or enter the full path of one under Python on the Image engine page, then try again.`;
    case 'python_too_old':
      return `The Python at “${f.python}” is version ${f.version}; the image engine needs ${f.needed} or newer. Install a newer Python or enter the path of one under Python on the Image engine page, then try again.`;
    case 'venv_failed':
      return `Hearth could not make the image engine’s own Python environment with “${f.python}”. On Debian or Ubuntu the python3-venv package provides it. The engine’s log on the Image engine page says more.`;
    case 'pip_failed':
      return `Installing what the image engine needs failed (${f.file}). The last lines of the engine’s log on the Image engine page say why: often this computer is offline, or a package does not fit this Python. Fix that, then try again.`;
  }
}
