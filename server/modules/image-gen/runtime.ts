// The image engine's process as image generation sees it (ImageEngineRuntime, ports.ts): idle until
// first needed, then warming until GET /system_stats answers, then ready, or failed with a sentence
// saying what to do. With IMAGE_ENGINE_URL set the engine is someone else's: Hearth never spawns
// it and only polls its health. Otherwise the household's ComfyUI folder and Python come from the
// app settings (IMAGE_ENGINE_DIR_KEY, IMAGE_ENGINE_PYTHON_KEY, written from the admin page) and the
// sidecar supervisor runs it (platform/sidecars/image-engine.ts).
import { ServiceUnavailableError } from '../../errors.js';
import type { ImageEngineLaunch } from '../../platform/image-engine-flags.js';
import type { ImageEngineSidecarConfig } from '../../platform/sidecars/image-engine.js';
import type { SidecarStatus } from '../../platform/sidecars/supervisor.js';
import type { EngineRuntimeStatus, ImageEngineClient, ImageEngineRuntime } from './ports.js';
import { ENGINE_READY_DEADLINE_MS, type EngineState } from './schema.js';

/** App settings (server/db/kv.ts) holding the household's engine install. */
export const IMAGE_ENGINE_DIR_KEY = 'image_engine_dir';
export const IMAGE_ENGINE_PYTHON_KEY = 'image_engine_python';

export const NOT_SET_UP = 'The picture engine is not set up yet. An admin can choose its ComfyUI folder on the Picture engine admin page.';
const STOPPED_SENTENCE = 'The picture engine stopped. It starts again when someone makes a picture.';

/** The part of ProcessSupervisor the runtime uses. */
export interface EngineSupervisor {
  apply(config: ImageEngineSidecarConfig): Promise<void>;
  status(): SidecarStatus;
  onChange(listener: (s: SidecarStatus) => void): () => void;
  stop(): Promise<void>;
}

export interface ImageEngineRuntimeDeps {
  client: Pick<ImageEngineClient, 'systemStats' | 'forget'>;
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
  /** How often an external engine's health is polled while warming. */
  pollMs?: number;
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
    return { state: this.state, error: this.error, configured: this.configured, external: this.d.external, since: this.since.toISOString() };
  }

  private set(state: EngineState, error: string | null = null): void {
    if (state !== this.state || error !== this.error) {
      this.state = state;
      this.error = error;
      this.since = this.d.now();
    }
    for (const w of [...this.waiters]) w();
  }

  ensureStarted(): void {
    if (this.stopped) this.stopped = false;
    if (this.state === 'ready' || this.state === 'warming' || this.state === 'installing' || this.starting) return;
    this.starting = this.start().finally(() => (this.starting = null));
    // the start reports through set(); its own failure is already a state
    void this.starting.catch(() => undefined);
  }

  private async start(): Promise<void> {
    this.set('warming');
    this.d.client.forget();
    if (this.d.external) return this.pollExternal();
    const [dir, python] = await Promise.all([this.d.settings.get<string>(IMAGE_ENGINE_DIR_KEY), this.d.settings.get<string>(IMAGE_ENGINE_PYTHON_KEY)]);
    this.configured = typeof dir === 'string' && dir !== '';
    if (!this.configured) return this.set('idle', NOT_SET_UP);
    const launch = await this.d.launch();
    await this.d.supervisor.apply({ dir: dir!, python: typeof python === 'string' && python !== '' ? python : 'python3', launch });
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
        if (Date.now() >= deadline) return this.set('failed', 'The picture engine at IMAGE_ENGINE_URL is not answering. Check that it is running, then try again.');
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

  /** Starts the engine again (the supervisor's apply stops the old process first); `reason` goes to the engine's log. */
  async restart(reason: string): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    this.d.log.write?.(`Hearth restarts the engine: ${reason}`);
    this.stopped = false;
    this.starting = this.start().finally(() => (this.starting = null));
    if (!this.d.external) await this.starting.catch(() => undefined);
  }

  logTail(lines: number): Promise<string[]> {
    return Promise.resolve(this.d.log.tail(lines));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    if (!this.d.external) await this.d.supervisor.stop();
    this.set('idle');
  }
}
