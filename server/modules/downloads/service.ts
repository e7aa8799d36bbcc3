// The durable download queue's operations: enqueue (with offline, disk and path checks), status
// with live progress, retry, cancel (removing the partial file), reorder, pause and resume.
import { downloadErrorSentence } from '../../adapters/web/download-sentence.js';
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { assertAdmin, type Actor } from '../../actor.js';
import { removePartial, partPath } from '../../adapters/web/download.js';
import { BadRequestError, ConflictError, NotFoundError, ServiceUnavailableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { OfflineState } from '../../platform/offline-switch.js';
import { offlineMessage } from '../../platform/ssrf-address.js';
import type { DownloadQueueState } from './queue-state.js';
import type { DownloadRunner } from './runner.js';
import { compareJobs } from './scheduling.js';
import {
  LARGE_JOB_BYTES,
  NewJob,
  PRIORITY_BY_KIND,
  type DownloadJob,
  type JobProgress,
  type JobsStatus,
  type JobState,
  type ReorderBody,
} from './schema.js';
import type { DownloadJobsStore } from './store.js';

export interface DownloadsDeps {
  store: DownloadJobsStore;
  runner: DownloadRunner;
  state: DownloadQueueState;
  clock: Clock;
  dataDir: string;
  /** Offline mode, read at each call (platform/offline-switch.ts). */
  offline: OfflineState;
  /** The one reserve check every large write makes (platform/disk.ts). */
  disk: DiskSpace;
}

export class DownloadsService {
  constructor(private readonly deps: DownloadsDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  isPaused = (): Promise<boolean> => this.deps.state.isPaused();

  /** Absolute path of a job's destination (see DownloadQueueState.destinationPath). */
  destinationPath(destination: string): string {
    return this.deps.state.destinationPath(destination);
  }

  /**
   * The .part files of the downloads still waiting or running (absolute paths): the storage
   * clean-up leaves these and may remove any other .part file in the download folders.
   */
  async livePartFiles(): Promise<Set<string>> {
    const live = await this.deps.store.list(['pending', 'running']);
    return new Set(live.flatMap((j) => (j.destination ? [partPath(this.destinationPath(j.destination))] : [])));
  }

  private async partSize(job: { destination: string | null }): Promise<number> {
    if (!job.destination) return 0;
    try {
      return (await stat(partPath(this.destinationPath(job.destination)))).size;
    } catch {
      return 0;
    }
  }

  /**
   * Adds jobs, one per target: a target that already has a live (waiting or running) job, or
   * appears twice in `input`, gets the existing job back instead of a second one. Refuses, before anything
   * is written: outbound jobs in offline mode (503), destinations outside the data folder (400),
   * and a set that cannot fit on the disk (507).
   */
  enqueue(actor: Actor, input: NewJob[]): Promise<DownloadJob[]> {
    // one at a time: two callers (boot's reconcile, the setup stream, the completion listener)
    // checking "is this target queued?" at once would both answer no and queue it twice
    const run = this.enqueueing.catch(() => undefined).then(() => this.enqueueNow(actor, input));
    this.enqueueing = run;
    return run;
  }

  private enqueueing: Promise<unknown> = Promise.resolve();

  private async enqueueNow(actor: Actor, input: NewJob[]): Promise<DownloadJob[]> {
    assertAdmin(actor);
    const parsed = input.map((j) => NewJob.parse(j));
    if (this.deps.offline.isOn() && parsed.some((j) => j.hostClass !== 'local')) {
      throw new ServiceUnavailableError('offline_mode', offlineMessage(this.deps.offline.reason));
    }
    for (const j of parsed) {
      if (j.kind === 'runtime_model') continue;
      if (!j.destination) throw new BadRequestError(`${j.label} needs a destination file.`);
      this.destinationPath(j.destination);
    }
    const fresh: typeof parsed = [];
    const existing: DownloadJob[] = [];
    const seen = new Set<string>();
    for (const j of parsed) {
      if (seen.has(j.target)) continue;
      seen.add(j.target);
      const live = await this.deps.store.findActiveByTarget(j.target);
      if (live) existing.push(live);
      else fresh.push(j);
    }
    const needed = (await Promise.all(fresh.map(async (j) => (j.kind === 'runtime_model' ? 0 : (j.expectedBytes ?? 0) - (await this.partSize(j)))))).reduce(
      (a, b) => a + Math.max(0, b),
      0,
    );
    if (needed > 0) await this.deps.disk.ensureRoom(this.deps.dataDir, needed);
    let position = await this.deps.store.maxPosition();
    const created: DownloadJob[] = [];
    const now = this.now();
    for (const j of fresh) {
      const job: DownloadJob = {
        id: randomUUID(),
        kind: j.kind,
        target: j.target,
        destination: j.kind === 'runtime_model' ? null : j.destination,
        label: j.label,
        itemId: j.itemId,
        expectedBytes: j.expectedBytes,
        sha256: j.sha256?.toLowerCase() ?? null,
        large: (j.expectedBytes ?? 0) >= LARGE_JOB_BYTES,
        hostClass: j.hostClass,
        priority: PRIORITY_BY_KIND[j.kind],
        position: ++position,
        state: 'pending',
        attempts: 0,
        nextAttemptAt: null,
        bytesDone: await this.partSize(j),
        bytesTotal: j.expectedBytes,
        speedBps: 0,
        lastError: null,
        requires: j.requires,
        createdAt: now,
        updatedAt: now,
        startedAt: null,
        finishedAt: null,
      };
      await this.deps.store.insert(job);
      created.push(job);
    }
    void this.deps.runner.poke();
    return [...existing, ...created];
  }

  async status(): Promise<JobsStatus> {
    const jobs = (await this.deps.store.list()).sort(compareJobs);
    const counts: Record<JobState, number> = { pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const j of jobs) counts[j.state]++;
    return {
      paused: await this.isPaused(),
      offline: this.deps.offline.isOn(),
      counts,
      jobs: jobs.map((raw) => {
        // a job that failed before errors were sentences still reads as one
        const j = raw.lastError ? { ...raw, lastError: downloadErrorSentence(raw.lastError) } : raw;
        const live = this.deps.runner.progressOf(j.id);
        return live ? { ...j, ...live } : { ...j, etaSeconds: null };
      }),
    };
  }

  /** One job with its live progress while it runs, or null (a feature watching its own download). */
  async progress(id: string): Promise<JobProgress | null> {
    const job = await this.deps.store.find(id);
    if (!job) return null;
    const live = this.deps.runner.progressOf(id);
    return live ? { ...job, ...live } : { ...job, etaSeconds: null };
  }

  private async get(id: string): Promise<DownloadJob> {
    const job = await this.deps.store.find(id);
    if (!job) throw new NotFoundError('That download does not exist.');
    return job;
  }

  async retry(actor: Actor, id: string): Promise<DownloadJob> {
    assertAdmin(actor);
    const job = await this.get(id);
    if (job.state !== 'failed' && job.state !== 'cancelled') throw new ConflictError('not_failed', 'Only a failed or cancelled download can be retried.');
    if (this.deps.offline.isOn() && job.hostClass !== 'local') throw new ServiceUnavailableError('offline_mode', offlineMessage(this.deps.offline.reason));
    await this.deps.store.transition(id, ['failed', 'cancelled'], { state: 'pending', attempts: 0, nextAttemptAt: null, lastError: null, finishedAt: null, updatedAt: this.now() });
    void this.deps.runner.poke();
    return this.get(id);
  }

  async retryAllFailed(actor: Actor): Promise<{ retried: number }> {
    assertAdmin(actor);
    const failed = await this.deps.store.list(['failed']);
    for (const j of failed) await this.deps.store.transition(j.id, ['failed'], { state: 'pending', attempts: 0, nextAttemptAt: null, lastError: null, finishedAt: null, updatedAt: this.now() });
    void this.deps.runner.poke();
    return { retried: failed.length };
  }

  async cancel(actor: Actor, id: string): Promise<DownloadJob> {
    assertAdmin(actor);
    const job = await this.get(id);
    if (job.state !== 'pending' && job.state !== 'running') throw new ConflictError('not_active', 'Only a waiting or running download can be cancelled.');
    const now = this.now();
    await this.deps.store.transition(id, ['pending', 'running'], { state: 'cancelled', speedBps: 0, finishedAt: now, updatedAt: now });
    await this.deps.runner.abort(id);
    if (job.destination) await removePartial(this.destinationPath(job.destination));
    await this.deps.store.update(id, { bytesDone: 0 });
    return this.get(id);
  }

  async reorder(actor: Actor, id: string, body: ReorderBody): Promise<DownloadJob> {
    assertAdmin(actor);
    const job = await this.get(id);
    if (job.state !== 'pending') throw new ConflictError('not_pending', 'Only a waiting download can be moved.');
    const priority = body.priority ?? job.priority;
    if (body.move) {
      const peers = (await this.deps.store.list(['pending'])).filter((j) => j.priority === priority && j.id !== id).sort(compareJobs);
      const idx = peers.findIndex((j) => j.position > job.position);
      const here = idx === -1 ? peers.length : idx;
      const positions = peers.map((p) => p.position);
      let position = job.position;
      if (body.move === 'top') position = (positions[0] ?? job.position) - 1;
      else if (body.move === 'bottom') position = (positions.at(-1) ?? job.position) + 1;
      else if (body.move === 'up' && here > 0) position = here - 2 >= 0 ? (positions[here - 2]! + positions[here - 1]!) / 2 : positions[here - 1]! - 1;
      else if (body.move === 'down' && here < peers.length) position = here + 1 < peers.length ? (positions[here]! + positions[here + 1]!) / 2 : positions[here]! + 1;
      await this.deps.store.update(id, { position, priority, updatedAt: this.now() });
    } else {
      await this.deps.store.update(id, { priority, updatedAt: this.now() });
    }
    void this.deps.runner.poke();
    return this.get(id);
  }

  async setPaused(actor: Actor, paused: boolean): Promise<{ paused: boolean }> {
    assertAdmin(actor);
    await this.deps.state.setPaused(paused);
    void this.deps.runner.poke();
    return { paused };
  }
}
