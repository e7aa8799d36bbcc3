// Runs the Hearth server (dist/server/entry.js) in an Electron utilityProcess so SQLite and parsing
// never freeze the tray and windows: forks it, pipes its output into the rotating log, waits for its
// {type:'ready', port, urls} message with a deadline, restarts it after a crash with backoff, and
// stops it by asking first (the server then stops its sidecars) and killing only after a grace period.
// Electron is not imported here: index.ts passes utilityProcess.fork in, tests pass a fake.
import type { LogSink } from './log-file.js';

/** The part of Electron's UtilityProcess the host uses. */
export interface ServerChild {
  readonly pid?: number;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  postMessage(message: unknown): void;
  kill(): boolean;
}

export type ForkServer = (entry: string, args: string[]) => ServerChild;

export type ServerState = 'stopped' | 'starting' | 'running' | 'restarting' | 'failed';

export interface ServerSnapshot {
  state: ServerState;
  port: number | null;
  urls: string[];
  pid: number | null;
  /** The last start or crash problem, for the tray and dialogs. */
  error: string | null;
  /** Crash restarts since the host was created. */
  restarts: number;
}

export interface ServerReady {
  port: number;
  urls: string[];
}

export interface ServerHostOptions {
  fork: ForkServer;
  entry: string;
  /** Read at every (re)start, so a moved data folder or a new port applies to the next process. */
  args: () => string[];
  log: LogSink;
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Delay before each consecutive crash restart; when they run out the host gives up. */
  backoffMs?: readonly number[];
  /** A server that stayed up this long starts the backoff from the beginning again. */
  stableAfterMs?: number;
  onChange?: (snapshot: ServerSnapshot) => void;
  /** Crash restarts were exhausted; the server stays down until restart() is called. */
  onGiveUp?: (err: ServerStartError) => void;
}

/** A start that did not reach ready; the message names the log file to read. */
export class ServerStartError extends Error {
  constructor(
    readonly reason: string,
    readonly logFile: string,
    readonly tail: string[],
  ) {
    super(`${reason}\n\nThe log is in ${logFile}${tail.length ? `\n\nLast lines:\n${tail.join('\n')}` : ''}`);
    this.name = 'ServerStartError';
  }
}

export const READY_TIMEOUT_MS = 60_000;
export const STOP_TIMEOUT_MS = 20_000;
export const KILL_WAIT_MS = 5_000;
export const RESTART_BACKOFF_MS = [1_000, 2_000, 5_000, 15_000, 30_000] as const;
export const STABLE_AFTER_MS = 60_000;
const TAIL_LINES = 15;

function readyMessage(msg: unknown): ServerReady | null {
  if (typeof msg !== 'object' || msg === null) return null;
  const m = msg as { type?: unknown; port?: unknown; urls?: unknown };
  if (m.type !== 'ready' || typeof m.port !== 'number' || !Number.isInteger(m.port)) return null;
  const urls = Array.isArray(m.urls) ? m.urls.filter((u): u is string => typeof u === 'string') : [];
  return { port: m.port, urls };
}

export class ServerHost {
  private child: ServerChild | null = null;
  private exited: Promise<number> | null = null;
  private snap: ServerSnapshot = { state: 'stopped', port: null, urls: [], pid: null, error: null, restarts: 0 };
  private consecutiveCrashes = 0;
  private readyAt = 0;
  private restartTimer: ReturnType<typeof setTimeout> | null = null;
  private stopping = false;
  private tail: string[] = [];
  private partial = '';

  constructor(private readonly opts: ServerHostOptions) {}

  get snapshot(): ServerSnapshot {
    return { ...this.snap, urls: [...this.snap.urls] };
  }

  private set(patch: Partial<ServerSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    this.opts.onChange?.(this.snapshot);
  }

  private note(line: string): void {
    this.opts.log.write(`${new Date().toISOString()} [desktop] ${line}\n`);
  }

  private output(chunk: Buffer | string): void {
    const text = chunk.toString();
    this.opts.log.write(text);
    const lines = (this.partial + text).split(/\r?\n/);
    this.partial = lines.pop() ?? '';
    this.tail.push(...lines.filter((l) => l.trim() !== ''));
    if (this.tail.length > TAIL_LINES) this.tail.splice(0, this.tail.length - TAIL_LINES);
  }

  private failure(reason: string): ServerStartError {
    const tail = this.partial.trim() ? [...this.tail, this.partial] : [...this.tail];
    return new ServerStartError(reason, this.opts.log.file, tail.slice(-TAIL_LINES));
  }

  /** Starts the server and resolves once it reports ready; rejects with a ServerStartError otherwise. */
  async start(): Promise<ServerReady> {
    if (this.snap.state === 'running' && this.snap.port !== null) return { port: this.snap.port, urls: this.snap.urls };
    this.clearRestartTimer();
    this.stopping = false;
    this.consecutiveCrashes = 0;
    try {
      return await this.attempt();
    } catch (err) {
      const e = err as ServerStartError;
      // a start cut short by stop() is not a failure to report
      this.set({ state: this.stopping ? 'stopped' : 'failed', error: this.stopping ? null : e.reason, port: null, urls: [], pid: null });
      throw e;
    }
  }

  /** Stops (asking first) and starts again: the tray's Restart, and after the data folder moved. */
  async restart(): Promise<ServerReady> {
    await this.stop();
    return this.start();
  }

  /** One process from fork to ready. After ready, an unexpected exit schedules a restart. */
  private attempt(): Promise<ServerReady> {
    const readyTimeoutMs = this.opts.readyTimeoutMs ?? READY_TIMEOUT_MS;
    this.tail = [];
    this.partial = '';
    this.set({ state: this.snap.state === 'restarting' ? 'restarting' : 'starting', error: null });
    this.note(`starting the server: ${this.opts.entry}`);
    let child: ServerChild;
    try {
      child = this.opts.fork(this.opts.entry, this.opts.args());
    } catch (err) {
      return Promise.reject(this.failure(`The Hearth server could not be started: ${(err as Error).message}`));
    }
    this.child = child;
    child.stdout?.on('data', (c: Buffer | string) => this.output(c));
    child.stderr?.on('data', (c: Buffer | string) => this.output(c));
    this.exited = new Promise<number>((resolve) => child.on('exit', resolve));

    return new Promise<ServerReady>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        this.note(`no ready message within ${readyTimeoutMs / 1000} s; stopping it`);
        child.kill();
        reject(this.failure(`The Hearth server did not finish starting within ${readyTimeoutMs / 1000} seconds.`));
      }, readyTimeoutMs);

      child.on('message', (msg) => {
        const ready = readyMessage(msg);
        if (!ready || settled || this.child !== child) return;
        settled = true;
        clearTimeout(timer);
        this.readyAt = Date.now();
        this.note(`ready on port ${ready.port}`);
        this.set({ state: 'running', port: ready.port, urls: ready.urls, pid: child.pid ?? null, error: null });
        resolve(ready);
      });

      void this.exited!.then((code) => {
        if (this.child === child) this.child = null;
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          this.note(`exited with code ${code} before it was ready`);
          reject(this.failure(exitReason(code)));
          return;
        }
        if (this.stopping || this.snap.state !== 'running') return;
        this.note(`exited with code ${code} while running`);
        this.crashed(`The Hearth server stopped unexpectedly (exit code ${code}).`);
      });
    });
  }

  private crashed(reason: string): void {
    if (this.readyAt && Date.now() - this.readyAt >= (this.opts.stableAfterMs ?? STABLE_AFTER_MS)) this.consecutiveCrashes = 0;
    this.readyAt = 0;
    const backoff = this.opts.backoffMs ?? RESTART_BACKOFF_MS;
    const delay = backoff[this.consecutiveCrashes];
    this.consecutiveCrashes++;
    if (delay === undefined) {
      const err = this.failure(`${reason} It was restarted ${backoff.length} times and kept stopping.`);
      this.note('giving up after repeated crashes');
      this.set({ state: 'failed', error: err.reason, port: null, urls: [], pid: null });
      this.opts.onGiveUp?.(err);
      return;
    }
    this.note(`restarting in ${delay / 1000} s`);
    this.set({ state: 'restarting', error: reason, port: null, urls: [], pid: null, restarts: this.snap.restarts + 1 });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.attempt().catch((err: ServerStartError) => {
        if (!this.stopping) this.crashed(err.reason);
      });
    }, delay);
  }

  private tryPost(child: ServerChild): boolean {
    try {
      child.postMessage({ type: 'stop' });
      return true;
    } catch {
      return false; // the process is already going away
    }
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  /**
   * Asks the server to shut down (it closes SQLite and tree-kills its sidecars), waits for it to
   * exit, and kills it only when it does not. utilityProcess.kill() is a hard terminate on Windows,
   * so the message comes first on every platform.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.clearRestartTimer();
    const child = this.child;
    const exited = this.exited;
    if (child && exited) {
      this.note('stopping the server');
      // before ready the server has not opened its stop channel yet and owns no sidecars
      const asked = this.snap.state === 'running' && this.tryPost(child);
      if (!asked || !(await settlesWithin(exited, this.opts.stopTimeoutMs ?? STOP_TIMEOUT_MS))) {
        if (asked) this.note('the server did not stop in time; killing it');
        child.kill();
        await settlesWithin(exited, KILL_WAIT_MS);
      }
    }
    this.child = null;
    this.exited = null;
    this.set({ state: 'stopped', port: null, urls: [], pid: null });
  }
}

function exitReason(code: number): string {
  // run.ts exits 2 for a bad configuration and 1 when it cannot listen (port in use) or crashes
  if (code === 2) return 'The Hearth server refused its configuration (exit code 2).';
  return `The Hearth server stopped while starting (exit code ${code}).`;
}

function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}
