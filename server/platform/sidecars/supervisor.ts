// ProcessSupervisor: the one place Hearth spawns long-running programs (archive server, image
// engine). It owns spawn arguments, loopback binding, readiness polling with a deadline, the state
// machine (idle -> starting -> ready | failed), stdout/stderr into the logger with the program's
// name, health checks while running (a hang is killed: SIGTERM, a short grace, then SIGKILL of the
// whole tree), restart with backoff after a crash, and serialized reconfiguration where the last
// request wins.
import { spawn, type ChildProcess } from 'node:child_process';
import treeKill from 'tree-kill';
import { childProcessEnv } from '../../config.js';
import type { Logger } from '../logger.js';

export type SidecarState = 'idle' | 'starting' | 'ready' | 'failed';

export interface SidecarLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export interface SidecarDefinition<C> {
  name: string;
  /** Builds the command line for a configuration (null command = not installed). */
  launch(config: C): SidecarLaunch | { error: string };
  /** One readiness/health probe; true when the program answers correctly. */
  probe(signal: AbortSignal): Promise<boolean>;
  readinessTimeoutMs: number;
  pollIntervalMs?: number;
  /** While ready, a probe runs this often; `hangAfterFailures` failures in a row count as a hang. */
  healthIntervalMs?: number;
  hangAfterFailures?: number;
  stopGraceMs?: number;
  /** Exit codes after which the program is started again (e.g. 139 SIGSEGV, 135 SIGBUS); 'any' = every unexpected exit. */
  restartOn?: number[] | 'any';
  maxRestarts?: number;
}

export interface SidecarStatus {
  state: SidecarState;
  error: string | null;
  pid: number | null;
  restarts: number;
  since: string;
}

type Listener = (s: SidecarStatus) => void;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });

export class ProcessSupervisor<C> {
  private child: ChildProcess | null = null;
  private state: SidecarState = 'idle';
  private error: string | null = null;
  private restarts = 0;
  private since = new Date().toISOString();
  private desired: C | null = null;
  private applied: C | null = null;
  private work: Promise<void> = Promise.resolve();
  private pendingApply = false;
  private stopping = false;
  private healthTimer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<Listener>();
  private lifetime = new AbortController();

  constructor(
    private readonly def: SidecarDefinition<C>,
    private readonly logger: Logger,
  ) {}

  status(): SidecarStatus {
    return { state: this.state, error: this.error, pid: this.child?.pid ?? null, restarts: this.restarts, since: this.since };
  }

  onChange(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private set(state: SidecarState, error: string | null = null): void {
    if (this.state === state && this.error === error) return;
    this.state = state;
    this.error = error;
    this.since = new Date().toISOString();
    this.logger.info({ state, error }, 'state');
    for (const l of this.listeners) l(this.status());
  }

  /**
   * Starts (or restarts) the program with this configuration. Calls are serialized: while one
   * restart runs, later calls collapse into one more restart with the last configuration given.
   * Resolves when the program is ready or has failed.
   */
  apply(config: C): Promise<void> {
    this.desired = config;
    this.stopping = false;
    if (this.pendingApply) return this.work;
    this.pendingApply = true;
    this.work = this.work.then(async () => {
      this.pendingApply = false;
      const next = this.desired;
      if (next === null || this.stopping) return;
      await this.stopChild();
      this.restarts = 0;
      await this.startChild(next);
    });
    return this.work;
  }

  /** The configuration the running program was started with. */
  current(): C | null {
    return this.applied;
  }

  private async startChild(config: C): Promise<void> {
    const launch = this.def.launch(config);
    if ('error' in launch) {
      this.applied = config;
      this.set('failed', launch.error);
      return;
    }
    this.set('starting');
    this.lifetime = new AbortController();
    const lifetime = this.lifetime;
    let child: ChildProcess;
    try {
      child = spawn(launch.command, launch.args, { env: childProcessEnv(launch.env), cwd: launch.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      this.set('failed', `Could not start ${this.def.name}: ${(err as Error).message}`);
      return;
    }
    this.child = child;
    this.applied = config;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    const spawnError = new Promise<string>((resolve) => child.once('error', (e) => resolve(e.message)));
    const pipe = (stream: NodeJS.ReadableStream | null, level: 'info' | 'warn') => {
      let buf = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (d: string) => {
        buf += d;
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) this.logger[level](line);
        }
      });
    };
    pipe(child.stdout, 'info');
    pipe(child.stderr, 'warn');
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      lifetime.abort();
      if (this.child === child) this.child = null;
      this.stopHealth();
      if (this.stopping || child !== this.lastSpawned) return;
      void this.onUnexpectedExit(config, code, signal);
    });
    this.lastSpawned = child;

    // readiness: poll until it answers, it exits, or the deadline passes
    const deadline = Date.now() + this.def.readinessTimeoutMs;
    const failure = await Promise.race([
      spawnError.then((m) => `Could not start ${this.def.name}: ${m}`),
      (async () => {
        while (Date.now() < deadline) {
          if (exited) return `${this.def.name} exited during start-up (${describeExit(exited)}).`;
          const ok = await this.def.probe(AbortSignal.any([lifetime.signal, AbortSignal.timeout(2000)])).catch(() => false);
          if (ok) return null;
          await sleep(this.def.pollIntervalMs ?? 100, lifetime.signal);
        }
        return exited ? `${this.def.name} exited during start-up (${describeExit(exited)}).` : `${this.def.name} did not become ready within ${Math.round(this.def.readinessTimeoutMs / 1000)} s.`;
      })(),
    ]);
    if (failure) {
      if (!exited) await this.kill(child);
      this.set('failed', failure);
      return;
    }
    this.set('ready');
    this.startHealth(child);
  }

  private lastSpawned: ChildProcess | null = null;

  private startHealth(child: ChildProcess): void {
    const every = this.def.healthIntervalMs;
    if (!every) return;
    let failures = 0;
    this.healthTimer = setInterval(() => {
      void (async () => {
        if (this.child !== child || this.state !== 'ready') return;
        const ok = await this.def.probe(AbortSignal.timeout(Math.min(every, 5000))).catch(() => false);
        failures = ok ? 0 : failures + 1;
        if (failures >= (this.def.hangAfterFailures ?? 3) && this.child === child) {
          this.logger.warn({ failures }, 'not answering; treating as hung and restarting');
          failures = 0;
          await this.kill(child); // the exit handler restarts it
        }
      })();
    }, every);
    this.healthTimer.unref();
  }

  private stopHealth(): void {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = null;
  }

  private async onUnexpectedExit(config: C, code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const why = describeExit({ code, signal });
    const restartOn = this.def.restartOn ?? 'any';
    const eligible = restartOn === 'any' || (code !== null && restartOn.includes(code)) || signal === 'SIGKILL' || signal === 'SIGSEGV' || signal === 'SIGBUS';
    if (!eligible || this.restarts >= (this.def.maxRestarts ?? 5)) {
      this.set('failed', `${this.def.name} stopped (${why}).`);
      return;
    }
    this.restarts++;
    const delay = Math.min(30_000, 250 * 2 ** (this.restarts - 1));
    this.logger.warn({ exit: why, restart: this.restarts, delayMs: delay }, 'crashed; restarting');
    this.set('starting', `Restarting after ${why}.`);
    this.work = this.work.then(async () => {
      await sleep(delay);
      if (this.stopping || this.desired !== config || this.child) return;
      const restarts = this.restarts;
      await this.startChild(config);
      this.restarts = restarts;
    });
    await this.work;
  }

  private kill(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return resolve();
      const done = () => {
        clearTimeout(hard);
        resolve();
      };
      child.once('exit', done);
      treeKill(child.pid, 'SIGTERM');
      // a hung program (kiwix-serve's /suggest live-lock) ignores SIGTERM
      const hard = setTimeout(() => {
        if (child.pid) treeKill(child.pid, 'SIGKILL');
      }, this.def.stopGraceMs ?? 2000);
    });
  }

  private async stopChild(): Promise<void> {
    this.stopHealth();
    const child = this.child;
    this.child = null;
    this.lastSpawned = null;
    if (child) await this.kill(child);
  }

  /** Stops the program (tree-kill) and stays idle. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.desired = null;
    this.lifetime.abort();
    await this.work.catch(() => undefined);
    await this.stopChild();
    this.applied = null;
    this.set('idle');
  }

  /** Waits until the current start/restart work is settled. */
  settled(): Promise<void> {
    return this.work;
  }
}

function describeExit(e: { code: number | null; signal: NodeJS.Signals | null }): string {
  if (e.signal) return `signal ${e.signal}`;
  return `exit code ${e.code}`;
}
