// The queue runner: starts what the scheduling rules allow, runs each job with its own
// AbortSignal, writes progress at most once a second, retries with backoff, and parks running
// jobs on shutdown so the next start resumes them from their .part files.
import type { Clock } from '../../platform/clock.js';
import type { EventBus } from '../../platform/event-bus.js';
import type { Logger } from '../../platform/logger.js';
import { downloadErrorSentence } from '../../adapters/web/download-sentence.js';
import { backoffMs, nextWakeAt, pickJobsToStart } from './scheduling.js';
import { MAX_ATTEMPTS, PROGRESS_WRITE_INTERVAL_MS, type DownloadJob } from './schema.js';
import type { DownloadJobsStore } from './store.js';

export interface ExecutorContext {
  signal: AbortSignal;
  onProgress(bytesDone: number, bytesTotal: number | null): void;
}

export type JobExecutor = (job: DownloadJob, ctx: ExecutorContext) => Promise<void>;

/** Thrown by executors for failures that another attempt cannot fix. */
export interface MaybeRetryable {
  retryable?: boolean;
}

export class CancelledReason extends Error {
  constructor() {
    super('cancelled');
  }
}
export class ShutdownReason extends Error {
  constructor() {
    super('shutdown');
  }
}

export interface LiveProgress {
  bytesDone: number;
  bytesTotal: number | null;
  speedBps: number;
  etaSeconds: number | null;
}

export interface RunnerDeps {
  store: DownloadJobsStore;
  clock: Clock;
  logger: Logger;
  bus: EventBus;
  execute: JobExecutor;
  isPaused: () => Promise<boolean>;
  /** Jobs that need the internet are held (not failed) while offline mode is on. */
  isOffline: () => boolean;
  random?: () => number;
  backoffBaseMs?: number;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
  progress: LiveProgress;
  samples: Array<{ t: number; bytes: number }>;
  lastWrite: number;
  /** The job reaches outside (offline mode parks it). */
  outbound: boolean;
}

const SPEED_WINDOW_MS = 5_000;
const SAMPLE_EVERY_MS = 100;

export class DownloadRunner {
  private readonly running = new Map<string, Running>();
  private ticking: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: RunnerDeps) {}

  private nowIso(): string {
    return this.deps.clock.now().toISOString();
  }

  async start(): Promise<void> {
    const resumed = await this.deps.store.requeueRunning(this.nowIso());
    if (resumed) this.deps.logger.info({ resumed }, 'resuming interrupted downloads');
    // Fire-and-forget: the first tick runs in the background so server start does not wait for
    // downloads to launch; poke() catches and logs its own failures, so it never rejects.
    void this.poke();
  }

  progressOf(id: string): LiveProgress | null {
    return this.running.get(id)?.progress ?? null;
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Asks the runner to look at the queue again (after enqueue, retry, resume, a job ending…). */
  poke(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      try {
        do {
          this.again = false;
          await this.tick();
        } while (this.again && !this.stopped);
      } catch (err) {
        this.deps.logger.error({ err }, 'download queue tick failed');
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  private async tick(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const jobs = await this.deps.store.list();
    const now = this.deps.clock.now();
    const offline = this.deps.isOffline();
    const paused = await this.deps.isPaused();
    const { start, blocked } = pickJobsToStart(
      // while offline, only local jobs are candidates
      offline ? jobs.filter((j) => j.state !== 'pending' || j.hostClass === 'local') : jobs,
      now,
    );
    for (const id of blocked) {
      const job = jobs.find((j) => j.id === id)!;
      const dep = job.requires.map((r) => jobs.find((j) => j.id === r)).find((d) => !d || d.state !== 'completed');
      await this.deps.store.transition(id, ['pending'], {
        state: 'failed',
        lastError: `Needs ${dep?.label ?? 'a prerequisite'}, which ${dep ? (dep.state === 'cancelled' ? 'was cancelled' : 'failed') : 'is missing'}. Retry that one from Downloads first.`,
        finishedAt: now.toISOString(),
        updatedAt: now.toISOString(),
      });
      this.deps.bus.emit('download.failed', { jobId: id, label: job.label });
    }
    if (!paused) for (const id of start) await this.launch(jobs.find((j) => j.id === id)!);
    const wake = nextWakeAt(jobs, now);
    if (wake && !this.stopped) {
      this.timer = setTimeout(() => void this.poke(), Math.max(50, wake.getTime() - now.getTime()));
      this.timer.unref();
    }
  }

  private async launch(job: DownloadJob): Promise<void> {
    const startedAt = this.nowIso();
    const ok = await this.deps.store.transition(job.id, ['pending'], {
      state: 'running',
      attempts: job.attempts + 1,
      startedAt,
      updatedAt: startedAt,
      nextAttemptAt: null,
    });
    if (!ok) return;
    const controller = new AbortController();
    const entry: Running = {
      controller,
      done: Promise.resolve(),
      progress: { bytesDone: job.bytesDone, bytesTotal: job.bytesTotal ?? job.expectedBytes, speedBps: 0, etaSeconds: null },
      samples: [],
      lastWrite: 0,
      outbound: job.hostClass !== 'local',
    };
    this.running.set(job.id, entry);
    entry.done = this.runJob({ ...job, attempts: job.attempts + 1, state: 'running' }, entry);
  }

  private onProgress(job: DownloadJob, entry: Running, bytesDone: number, bytesTotal: number | null): void {
    const t = Date.now();
    // Called for every chunk (tens of thousands a second on a fast link): keep one speed sample per
    // SAMPLE_EVERY_MS, so the window stays a few dozen entries instead of hundreds of thousands.
    const last = entry.samples[entry.samples.length - 1];
    if (!last || t - last.t >= SAMPLE_EVERY_MS) entry.samples.push({ t, bytes: bytesDone });
    while (entry.samples.length > 2 && t - entry.samples[0]!.t > SPEED_WINDOW_MS) entry.samples.shift();
    const first = entry.samples[0]!;
    const speedBps = t > first.t ? Math.round(((bytesDone - first.bytes) * 1000) / (t - first.t)) : 0;
    entry.progress = {
      bytesDone,
      bytesTotal,
      speedBps,
      etaSeconds: bytesTotal != null && speedBps > 0 ? Math.round((bytesTotal - bytesDone) / speedBps) : null,
    };
    if (t - entry.lastWrite >= PROGRESS_WRITE_INTERVAL_MS) {
      entry.lastWrite = t;
      void this.deps.store
        .update(job.id, { bytesDone, bytesTotal, speedBps, updatedAt: this.nowIso() })
        .catch((err: unknown) => this.deps.logger.warn({ err, job: job.id }, 'could not save progress'));
    }
  }

  private async runJob(job: DownloadJob, entry: Running): Promise<void> {
    const { store, logger, bus } = this.deps;
    const log = logger.child('downloads');
    try {
      await this.deps.execute(job, { signal: entry.controller.signal, onProgress: (d, t) => this.onProgress(job, entry, d, t) });
      const now = this.nowIso();
      const { bytesDone, bytesTotal } = entry.progress;
      await store.transition(job.id, ['running'], {
        state: 'completed',
        bytesDone: bytesTotal ?? bytesDone,
        bytesTotal: bytesTotal ?? bytesDone,
        speedBps: 0,
        lastError: null,
        finishedAt: now,
        updatedAt: now,
      });
      log.info({ job: job.id, label: job.label }, 'download completed');
      bus.emit('download.completed', { jobId: job.id, kind: job.kind, itemId: job.itemId, destination: job.destination, target: job.target });
    } catch (err) {
      const reason = entry.controller.signal.reason as unknown;
      const now = this.nowIso();
      const progress = { bytesDone: entry.progress.bytesDone, bytesTotal: entry.progress.bytesTotal, speedBps: 0, updatedAt: now };
      if (reason instanceof CancelledReason) {
        // cancel() already moved the row; nothing else to record
      } else if (reason instanceof ShutdownReason) {
        // parked, not failed: this attempt does not count
        await store.transition(job.id, ['running'], { state: 'pending', attempts: job.attempts - 1, ...progress });
      } else {
        // the technical detail goes to the log; the job keeps a sentence a person can act on
        const detail = err instanceof Error ? err.message : String(err);
        const message = downloadErrorSentence(detail);
        const retryable = (err as MaybeRetryable).retryable !== false;
        if (retryable && job.attempts < MAX_ATTEMPTS) {
          const at = new Date(this.deps.clock.now().getTime() + backoffMs(job.attempts, this.deps.random, this.deps.backoffBaseMs));
          await store.transition(job.id, ['running'], { state: 'pending', lastError: message, nextAttemptAt: at.toISOString(), ...progress });
          log.warn({ job: job.id, attempt: job.attempts, retryAt: at.toISOString(), error: detail }, 'download attempt failed; will retry');
        } else {
          await store.transition(job.id, ['running'], { state: 'failed', lastError: message, finishedAt: now, ...progress });
          log.error({ job: job.id, attempts: job.attempts, error: detail }, 'download failed');
          bus.emit('download.failed', { jobId: job.id, label: job.label });
        }
      }
    } finally {
      this.running.delete(job.id);
      void this.poke();
    }
  }

  /** Aborts a running job for cancel(); resolves when it has stopped. */
  async abort(id: string): Promise<void> {
    const entry = this.running.get(id);
    if (!entry) return;
    entry.controller.abort(new CancelledReason());
    await entry.done;
  }

  /**
   * Offline mode turned on (an admin's switch): every running job that reaches outside goes back to
   * pending, its attempt not counted, and waits there until offline mode is off again.
   */
  async parkOutbound(): Promise<void> {
    const entries = [...this.running.values()].filter((e) => e.outbound);
    for (const e of entries) e.controller.abort(new ShutdownReason());
    await Promise.all(entries.map((e) => e.done));
  }

  /** Parks every running job (back to pending) and stops scheduling. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const entries = [...this.running.values()];
    for (const e of entries) e.controller.abort(new ShutdownReason());
    await Promise.all(entries.map((e) => e.done));
    await this.ticking;
  }
}
