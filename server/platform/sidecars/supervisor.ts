// ProcessSupervisor: the one place Hearth spawns long-running programs (archive server, image
// engine). It owns spawn arguments, loopback binding, readiness polling with a deadline, the state
// machine (idle -> starting -> ready | failed), stdout/stderr into the logger with the program's
// name, health checks while running (a hang is killed: SIGTERM, a short grace, then SIGKILL of the
// whole tree), restart with backoff after a crash, and serialized reconfiguration where the last
// request wins. Before a start the program's port must be free: one orphaned by a crash of Hearth
// (kill -9) is recognized by the pid file and stopped, anything else is waited for, never killed,
// and a failed start is tried again with backoff. The pid file and the orphan check are in
// pid-file.ts, the free-port wait in port.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import treeKill from 'tree-kill';
import { childProcessEnv } from '../../config.js';
import type { Logger } from '../logger.js';
import { sleep } from '../sleep.js';
import { PidFile } from './pid-file.js';
import { waitForFreePort } from './port.js';

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
  /** The 127.0.0.1 port the program listens on: it must be free before a start (else a probe could be answered by another process). */
  port?: number;
  /** Where the running program's pid and command line are kept, to recognize it as Hearth's after a crash of Hearth. */
  pidFile?: string;
  /** Further attempts after a failed start (port still taken, exit during start-up), with backoff. */
  startRetries?: number;
}

/** How long one start attempt waits for the port to become free. */
export const PORT_FREE_WAIT_MS = 3000;
const START_RETRY_BASE_MS = 500;

export interface SidecarStatus {
  state: SidecarState;
  error: string | null;
  pid: number | null;
  restarts: number;
  since: string;
}

type Listener = (s: SidecarStatus) => void;

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
  /** Aborted by stop(): ends waits between start attempts. */
  private halt = new AbortController();
  private readonly pidFile: PidFile;

  constructor(
    private readonly def: SidecarDefinition<C>,
    private readonly logger: Logger,
  ) {
    this.pidFile = new PidFile(def.pidFile, logger);
  }

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
    if (this.halt.signal.aborted) this.halt = new AbortController();
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

  /** Starts the program, trying again with backoff (def.startRetries) after a failed start. */
  private async startChild(config: C): Promise<void> {
    const retries = this.def.startRetries ?? 0;
    for (let attempt = 0; ; attempt++) {
      const failure = await this.startOnce(config);
      if (failure === null) return;
      if (attempt >= retries || this.stopping || this.desired !== config) {
        this.set('failed', failure);
        return;
      }
      const delayMs = START_RETRY_BASE_MS * 2 ** attempt;
      this.logger.warn({ attempt: attempt + 1, delayMs, error: failure }, 'start failed; trying again');
      this.set('starting', `${failure} Trying again.`);
      await sleep(delayMs, this.halt.signal);
      if (this.stopping || this.desired !== config) return;
    }
  }

  /** One start: null when ready (or when it cannot be started at all), else why it failed. */
  private async startOnce(config: C): Promise<string | null> {
    const launch = this.def.launch(config);
    if ('error' in launch) {
      this.applied = config;
      this.set('failed', launch.error);
      return null;
    }
    this.set('starting', this.state === 'starting' ? this.error : null);
    if (this.def.port !== undefined) {
      await this.pidFile.reclaimOrphan(this.child?.pid, this.def.stopGraceMs ?? 2000);
      if (!(await waitForFreePort(this.def.port, PORT_FREE_WAIT_MS, this.halt.signal))) {
        return `${this.def.name} cannot start: port ${this.def.port} on 127.0.0.1 is in use by another program. Stop that program or give ${this.def.name} another port.`;
      }
    }
    if (this.stopping) return null;
    this.lifetime = new AbortController();
    const lifetime = this.lifetime;
    let child: ChildProcess;
    try {
      child = spawn(launch.command, launch.args, { env: childProcessEnv(launch.env), cwd: launch.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      return `Could not start ${this.def.name}: ${(err as Error).message}`;
    }
    this.child = child;
    this.applied = config;
    if (child.pid) this.pidFile.write({ pid: child.pid, argv: [launch.command, ...launch.args] });
    let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    // an exit before ready is this start failing (startChild tries again), not a crash to restart
    let wasReady = false;
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
      this.pidFile.remove(child.pid);
      if (this.child === child) this.child = null;
      this.stopHealth();
      if (this.stopping || child !== this.lastSpawned || !wasReady) return;
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
          // an answer counts only while the program started here still runs: whatever else answers
          // on the port is not it
          if (ok && !exited) return null;
          await sleep(this.def.pollIntervalMs ?? 100, lifetime.signal);
        }
        return exited ? `${this.def.name} exited during start-up (${describeExit(exited)}).` : `${this.def.name} did not become ready within ${Math.round(this.def.readinessTimeoutMs / 1000)} s.`;
      })(),
    ]);
    if (failure || exited) {
      if (!exited) await this.kill(child);
      return failure ?? `${this.def.name} exited during start-up (${describeExit(exited!)}).`;
    }
    wasReady = true;
    this.set('ready');
    this.startHealth(child);
    return null;
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
    this.halt.abort();
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
