// The file converter's rules: which presets are offered (those whose program is installed), a job's
// life (queued → start → progress → done or error; one job at a time per CPU core), its events kept
// for late subscribers, cancelling (the program's process tree killed), and the converted files:
// the owner's only (anyone else gets 404), kept 24 hours, then swept.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { converterAppError, converterFailureKind } from '../../adapter-errors/converter.js';
import { hasTool, type ConverterPrograms, type ToolFence } from '../../adapters/converter/programs.js';
import { isAdmin, ownedOrNotFound, type UserActor } from '../../actor.js';
import { BadRequestError, NotFoundError, publicError, UnprocessableError } from '../../errors.js';
import type { ReplayChannel } from '../../http/sse.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import { Semaphore } from '../../platform/semaphore.js';
import { convert } from './convert.js';
import { inputName, outputName, presetById, PRESETS, TOOL_PACKAGES, type PresetDefinition } from './presets.js';
import { CONVERTED_FILE_TTL_MS, PresetId, type JobEvents, type PresetsResponse, type ToolName } from './schema.js';
import type { ConverterStore } from './store.js';

type EventName = keyof JobEvents | 'error';

interface Job {
  id: string;
  ownerId: string;
  preset: PresetDefinition;
  dir: string;
  channel: ReplayChannel<EventName>;
  abort: AbortController;
  state: 'receiving' | 'queued' | 'running' | 'finished';
  finishedAt: number | null;
}

export interface ConverterDeps {
  store: ConverterStore;
  programs: ConverterPrograms;
  fence: ToolFence;
  /** DATA_DIR/converter: `jobs/<jobId>/` while a job runs, `files/<ownerId>/<fileId>` after. */
  dir: string;
  disk: DiskSpace;
  clock: Clock;
  logger: Logger;
  maxUploadBytes: number;
  /** Jobs run at once (one per CPU core). */
  slots: number;
  channel: () => ReplayChannel<EventName>;
}

/** How long a finished job's events stay for a late subscriber. */
const FINISHED_JOB_KEPT_MS = 60 * 60_000;

export class ConverterService {
  private readonly jobs = new Map<string, Job>();
  private readonly queue: Semaphore;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: ConverterDeps) {
    this.queue = new Semaphore(Math.max(1, deps.slots));
  }

  get maxUploadBytes(): number {
    return this.deps.maxUploadBytes;
  }

  private get filesDir(): string {
    return path.join(this.deps.dir, 'files');
  }
  private get jobsDir(): string {
    return path.join(this.deps.dir, 'jobs');
  }

  private toolInstalled(tool: ToolName): boolean {
    return tool === 'sharp' || hasTool(this.deps.programs, tool);
  }

  /** The presets whose program is installed; for an admin also what the missing ones need. */
  presets(actor: UserActor): PresetsResponse {
    const offered = PRESETS.filter((p) => this.toolInstalled(p.tool));
    const missing = new Map<ToolName, string[]>();
    for (const p of PRESETS.filter((x) => !this.toolInstalled(x.tool))) missing.set(p.tool, [...(missing.get(p.tool) ?? []), p.label]);
    // HEIC photos are read by heif-convert: the JPEG preset stays, but an admin is told what adds HEIC
    if (!hasTool(this.deps.programs, 'heif-convert')) missing.set('heif-convert', ['iPhone HEIC photos (Photo to JPEG)']);
    return {
      presets: offered.map(({ id, label, description, accept, output }) => ({ id, label, description, accept, output })),
      missing: isAdmin(actor) ? [...missing].map(([tool, presets]) => ({ tool, presets, install: TOOL_PACKAGES[tool] })) : [],
      maxUploadBytes: this.deps.maxUploadBytes,
    };
  }

  /** A new job's folder and the file its upload is written to (the route streams the form into it). */
  async receiving(declaredBytes: number | null): Promise<{ jobId: string; upload: string }> {
    const jobId = randomUUID();
    const dir = path.join(this.jobsDir, jobId);
    await mkdir(dir, { recursive: true });
    if (declaredBytes !== null) await this.deps.disk.ensureRoom(dir, Math.min(declaredBytes, this.deps.maxUploadBytes) * 2, { what: 'This conversion' });
    return { jobId, upload: path.join(dir, 'upload') };
  }

  /** An upload that failed or was refused: its folder goes. */
  async discard(jobId: string): Promise<void> {
    await rm(path.join(this.jobsDir, jobId), { recursive: true, force: true });
  }

  /** Queues the received file under its preset; 400 for an unknown preset, 422 for one whose program is missing. */
  async create(actor: UserActor, jobId: string, upload: { preset: string | undefined; filename: string | null; head: Buffer }): Promise<{ jobId: string }> {
    const parsed = PresetId.safeParse(upload.preset);
    if (!parsed.success) {
      await this.discard(jobId);
      throw new BadRequestError(`Choose one of the presets: ${PRESETS.map((p) => p.id).join(', ')}.`);
    }
    const preset = presetById(parsed.data);
    if (!this.toolInstalled(preset.tool)) {
      await this.discard(jobId);
      throw new UnprocessableError('tool_not_installed', `${preset.label} needs ${TOOL_PACKAGES[preset.tool]}, which is not installed on the Hearth computer. An admin can install it.`);
    }
    const dir = path.join(this.jobsDir, jobId);
    const input = path.join(dir, inputName(preset, upload.filename));
    await rename(path.join(dir, 'upload'), input);
    const job: Job = { id: jobId, ownerId: actor.id, preset, dir, channel: this.deps.channel(), abort: new AbortController(), state: 'queued', finishedAt: null };
    this.jobs.set(jobId, job);
    job.channel.publish('queued', { position: this.queue.pending });
    const run = this.run(job, input, upload.head, outputName(preset, upload.filename)).finally(() => this.running.delete(run));
    this.running.add(run);
    return { jobId };
  }

  private async run(job: Job, input: string, head: Buffer, name: string): Promise<void> {
    await this.queue.run(async () => {
      if (job.abort.signal.aborted) return;
      job.state = 'running';
      const started = performance.now();
      const elapsed = () => (performance.now() - started) / 1000;
      let share: number | null = null;
      let lastProgress = -Infinity;
      const ticker = setInterval(() => {
        // tools that say nothing of their progress: the elapsed time, every second
        if (share === null) job.channel.publish('progress', { percent: null, etaSeconds: null, elapsedSeconds: Math.round(elapsed()) });
      }, 1000);
      ticker.unref();
      try {
        const made = await convert(this.deps.fence, this.deps.programs, {
          preset: job.preset,
          dir: job.dir,
          input,
          head,
          signal: job.abort.signal,
          onTool: (tool) => job.channel.publish('start', { tool }),
          onProgress: (s) => {
            share = s;
            // at most one progress event a second (the last one always): a late subscriber is replayed them all
            const now = performance.now();
            if (s < 1 && now - lastProgress < 1000) return;
            lastProgress = now;
            const seconds = elapsed();
            const percent = Math.round(s * 1000) / 10;
            job.channel.publish('progress', { percent, etaSeconds: s > 0 ? Math.round((seconds * (1 - s)) / s) : null, elapsedSeconds: Math.round(seconds) });
          },
        });
        if (job.abort.signal.aborted) throw new UnprocessableError('cancelled', 'The conversion was cancelled.');
        const fileId = randomUUID();
        const target = this.fileTarget(job.ownerId, fileId);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(made.file, target);
        const now = this.deps.clock.now();
        await this.deps.store.insert({ id: fileId, ownerId: job.ownerId, name, mime: job.preset.mime, bytes: made.bytes, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + CONVERTED_FILE_TTL_MS).toISOString() });
        job.channel.publish('done', { fileId, name, mime: job.preset.mime, bytes: made.bytes });
      } catch (err) {
        const kind = converterFailureKind(err);
        if (kind !== 'aborted') this.deps.logger.info({ jobId: job.id, preset: job.preset.id, failure: kind, err: (err as Error).message }, 'conversion failed');
        job.channel.publish('error', publicError(converterAppError(err, job.preset.reads)));
      } finally {
        clearInterval(ticker);
        await this.finish(job);
      }
    });
    // cancelled while it waited: its folder goes now
    if (job.state !== 'finished') await this.finish(job);
  }

  private async finish(job: Job): Promise<void> {
    job.state = 'finished';
    job.finishedAt = performance.now();
    await rm(job.dir, { recursive: true, force: true });
    job.channel.end();
  }

  private fileTarget(ownerId: string, fileId: string): string {
    const target = resolveInside(this.filesDir, `${ownerId}/${fileId}`);
    if (!target) throw new NotFoundError('That file is not here (converted files are kept for 24 hours).');
    return target;
  }

  private jobOf(actor: UserActor, id: string): Job {
    return ownedOrNotFound(actor, this.jobs.get(id), () => new NotFoundError('There is no such conversion (finished ones are forgotten after an hour).'));
  }

  /** The job's events (past ones replayed): the owner's only. */
  events(actor: UserActor, id: string): ReplayChannel<EventName> {
    return this.jobOf(actor, id).channel;
  }

  /** Stops a job: a queued one never starts; a running one's program (its whole process tree) is killed. */
  cancel(actor: UserActor, id: string): void {
    const job = this.jobOf(actor, id);
    if (job.state === 'finished' || job.abort.signal.aborted) return;
    job.abort.abort();
    if (job.state !== 'queued') return;
    job.channel.publish('error', { code: 'cancelled', message: 'The conversion was cancelled.' });
    void this.finish(job);
  }

  /** A converted file for its owner (anyone else: 404), while it is kept. */
  async file(actor: UserActor, id: string): Promise<{ path: string; name: string; mime: string; bytes: number }> {
    const gone = () => new NotFoundError('That file is not here. Converted files are kept for 24 hours; convert it again.');
    const row = ownedOrNotFound(actor, await this.deps.store.get(id), gone);
    if (row.expiresAt <= this.deps.clock.now().toISOString()) throw gone();
    return { path: this.fileTarget(row.ownerId, row.id), name: row.name, mime: row.mime, bytes: row.bytes };
  }

  /** Removes files past their 24 hours and forgets finished jobs after an hour. */
  async sweep(): Promise<number> {
    const expired = await this.deps.store.expired(this.deps.clock.now().toISOString());
    for (const f of expired) await rm(this.fileTarget(f.ownerId, f.id), { force: true });
    await this.deps.store.remove(expired.map((f) => f.id));
    const now = performance.now();
    for (const [id, job] of this.jobs) if (job.finishedAt !== null && now - job.finishedAt > FINISHED_JOB_KEPT_MS) this.jobs.delete(id);
    return expired.length;
  }

  /**
   * What the storage clean-up must leave in the converter's folder: `inUse`, the files still kept
   * ("files/<owner>/<file>", relative to it) and the jobs folders of the conversions in memory
   * ("jobs/<job>"); `known`, the ids of every file with a row (a file without one is an orphan, one
   * with an expired row is past its 24 hours).
   */
  async inUse(): Promise<{ inUse: Set<string>; known: Set<string> }> {
    const [kept, known] = await Promise.all([this.deps.store.kept(this.deps.clock.now().toISOString()), this.deps.store.allIds()]);
    return { inUse: new Set([...kept.map((f) => `files/${f.ownerId}/${f.id}`), ...[...this.jobs.keys()].map((id) => `jobs/${id}`)]), known };
  }

  async onUserDeleted(userId: string): Promise<void> {
    for (const job of this.jobs.values()) if (job.ownerId === userId) job.abort.abort();
    const dir = resolveInside(this.filesDir, userId);
    if (dir && dir !== this.filesDir) await rm(dir, { recursive: true, force: true });
  }

  /** At start: the jobs folder of a previous run (never finished) is cleared. */
  async start(): Promise<void> {
    await rm(this.jobsDir, { recursive: true, force: true });
    await mkdir(this.jobsDir, { recursive: true });
    await mkdir(this.filesDir, { recursive: true });
  }

  /** At close: running and queued jobs are stopped (their programs killed) and waited for. */
  async close(): Promise<void> {
    for (const job of this.jobs.values()) job.abort.abort();
    await Promise.allSettled([...this.running]);
  }
}
