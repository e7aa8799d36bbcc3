// Offline copies of podcast episodes (issue 35): a member asks for one, the household's durable
// download queue fetches it (through the SSRF guard, resumed after a restart), and Hearth then plays
// the file instead of the enclosure. One file per enclosure address, shared by every member who asks
// for that episode, removed once nobody does. A show's "keep the newest N" fetches the newest N
// episodes' copies after each poll and removes older ones, remembering what it removed (and what the
// member removed) so it never fetches those again. Files live in the data folder's podcasts/ area and
// are reached only through the queue's path guard.
import { createHash } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { SYSTEM_ACTOR, type Actor, type UserActor } from '../../actor.js';
import { NotFoundError, ServiceUnavailableError, UnauthorizedError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { offlineWho, type SsrfGuard } from '../../platform/ssrf.js';
import type { PodcastsPorts } from './ports.js';
import type { Episode, EpisodeDownload } from './schema.js';
import type { CopyRow, KeptEpisode, PodcastsStore } from './store.js';

/** The download queue's item id of a copy's job (`download.completed` names it). */
const ITEM_PREFIX = 'podcast:';
/** The data folder's area of the copies (declared in the manifest for Admin › Storage). */
export const COPIES_FOLDER = 'podcasts';

const EXTENSIONS: Record<string, string> = { 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3', 'audio/mp4': 'm4a', 'audio/x-m4a': 'm4a', 'audio/aac': 'aac', 'audio/ogg': 'ogg', 'audio/opus': 'opus', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/flac': 'flac' };

export interface CopiesDeps {
  store: PodcastsStore;
  downloads: PodcastsPorts['downloads'];
  guard: Pick<SsrfGuard, 'offline' | 'offlineSource'>;
  clock: Clock;
  logger: Logger;
}

export interface AudioFile {
  path: string;
  type: string;
}

function member(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw new UnauthorizedError('Sign in to use podcasts.');
  return actor;
}

export class EpisodeCopiesService {
  /** Copy rows are created, linked and removed one change at a time (a removal never races a new request for the same file). */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: CopiesDeps) {}

  private one<T>(work: () => Promise<T>): Promise<T> {
    const run = this.serial.catch(() => undefined).then(work);
    this.serial = run;
    return run;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** Where a copy lies, through the download queue's path guard (inside the data folder's podcasts/). */
  private pathOf(copy: Pick<CopyRow, 'destination'>): string {
    return this.deps.downloads.destinationPath(copy.destination);
  }

  /** The episodes as answered: each waiting copy's state asked of the queue (a copy it finished is recorded ready). */
  async decorate(episodes: readonly KeptEpisode[]): Promise<Episode[]> {
    return Promise.all(
      episodes.map(async ({ copyJobId, ...e }) => {
        if (!e.download || e.download.state === 'ready') return e;
        return { ...e, download: await this.waiting(copyJobId) };
      }),
    );
  }

  private async waiting(jobId: string | null): Promise<EpisodeDownload> {
    const job = jobId ? await this.deps.downloads.progress(jobId) : null;
    const blank = { bytes: null, totalBytes: null, error: null };
    if (!job) return { ...blank, state: 'failed', error: 'The download is no longer in the download queue. Download it again.' };
    switch (job.state) {
      case 'pending':
        return { ...blank, state: 'waiting', error: job.lastError };
      case 'running':
        return { state: 'downloading', bytes: Math.round(job.bytesDone), totalBytes: job.bytesTotal, error: null };
      case 'completed': {
        const ready = job.itemId ? await this.settle(job.itemId.slice(ITEM_PREFIX.length)) : null;
        return ready ? { state: 'ready', bytes: ready, totalBytes: ready, error: null } : { ...blank, state: 'failed', error: 'The downloaded file is missing. Download it again.' };
      }
      case 'cancelled':
        return { ...blank, state: 'failed', error: 'The download was cancelled in the download queue. Download it again.' };
      default:
        return { ...blank, state: 'failed', error: job.lastError ?? 'The download failed. Download it again.' };
    }
  }

  /** A member asks for an offline copy of one of their episodes; the queue fetches it (one file for everyone asking). */
  async download(actor: Actor, episodeId: string): Promise<void> {
    const me = member(actor);
    const target = await this.deps.store.downloadTarget(me.id, episodeId);
    if (!target) throw new NotFoundError('No such episode.');
    await this.one(() => this.ensure(target));
  }

  private async ensure(target: { id: string; title: string; audioUrl: string; audioType: string | null }): Promise<void> {
    const copyId = createHash('sha256').update(target.audioUrl).digest('hex').slice(0, 32);
    const copy = await this.deps.store.copy(copyId);
    if (copy?.state === 'ready' && (await this.sizeOf(copy)) !== null) return this.deps.store.link(target.id, copyId, this.now());
    if (copy?.state === 'queued' && copy.job_id) {
      const job = await this.deps.downloads.progress(copy.job_id);
      if (job && (job.state === 'pending' || job.state === 'running')) return this.deps.store.link(target.id, copyId, this.now());
    }
    if (this.deps.guard.offline) throw new ServiceUnavailableError('offline_mode', `Hearth is in offline mode, so it cannot download episodes. Episodes downloaded before still play. ${offlineWho(this.deps.guard.offlineSource.reason)}`);
    const type = target.audioType?.startsWith('audio/') ? target.audioType.split(';')[0]!.trim() : 'audio/mpeg';
    const row: CopyRow = copy ?? { id: copyId, audio_url: target.audioUrl, destination: `${COPIES_FOLDER}/${copyId}.${EXTENSIONS[type] ?? 'audio'}`, audio_type: type, job_id: null, state: 'queued', bytes: null, created_at: this.now(), ready_at: null };
    if (!copy) await this.deps.store.insertCopy(row);
    // the queue hands back a job already waiting or running for this address instead of a second one;
    // the label names no show: the admin's queue view does not tell what a member listens to
    const [job] = await this.deps.downloads.enqueue(SYSTEM_ACTOR, [
      { kind: 'podcast', target: target.audioUrl, destination: row.destination, label: 'Podcast episode (offline copy)', itemId: `${ITEM_PREFIX}${copyId}`, hostClass: 'podcast' },
    ]);
    await this.deps.store.setCopyJob(copyId, job!.id);
    await this.deps.store.link(target.id, copyId, this.now());
  }

  /** The member no longer wants the episode's copy: the file goes once no other member's episode asks for it. */
  async remove(actor: Actor, episodeId: string): Promise<void> {
    const me = member(actor);
    const target = await this.deps.store.downloadTarget(me.id, episodeId);
    if (!target) throw new NotFoundError('No such episode.');
    if (!target.copyId) return;
    await this.one(async () => {
      await this.deps.store.unlink([target.id], this.now());
      await this.drop(target.copyId!);
    });
  }

  /** Removes a copy nobody asks for: its row, its queue job (and partial file), its file. */
  private async drop(copyId: string): Promise<void> {
    const copy = await this.deps.store.copy(copyId);
    if (!copy || !(await this.deps.store.deleteCopyIfOrphan(copyId))) return;
    if (copy.state === 'queued' && copy.job_id) {
      const job = await this.deps.downloads.progress(copy.job_id);
      if (job && (job.state === 'pending' || job.state === 'running')) await this.deps.downloads.cancel(SYSTEM_ACTOR, copy.job_id).catch((err: unknown) => this.deps.logger.warn({ err }, 'could not cancel an episode download'));
    }
    await rm(this.pathOf(copy), { force: true });
  }

  /** Removes every copy no episode asks for any more (after an unfollow, a member removed, a show moved). */
  async sweep(): Promise<number> {
    return this.one(async () => {
      const orphans = await this.deps.store.orphanCopies();
      for (const c of orphans) await this.drop(c.id);
      return orphans.length;
    });
  }

  /**
   * A show's keep-newest rule: the copies of episodes older than the newest N are removed (and
   * remembered as removed); the newest N unfinished episodes get one unless the member removed theirs
   * before. Nothing is fetched in offline mode (the removals still happen).
   */
  async applyKeep(subscriptionId: string, keepNewest: number): Promise<void> {
    const plan = await this.deps.store.keepPlan(subscriptionId);
    const older = plan.slice(keepNewest).filter((e) => e.copyId !== null);
    const wanted = plan.slice(0, keepNewest).filter((e) => e.copyId === null && !e.dropped && !e.finished);
    if (older.length) {
      await this.one(async () => {
        await this.deps.store.unlink(older.map((e) => e.id), this.now());
        for (const c of new Set(older.map((e) => e.copyId!))) await this.drop(c);
      });
    }
    if (this.deps.guard.offline) return;
    for (const e of wanted) {
      try {
        await this.one(() => this.ensure(e));
      } catch (err) {
        this.deps.logger.warn({ err, subscriptionId }, 'an episode could not be queued for offline listening');
      }
    }
  }

  /** Every show's keep-newest rule (after the hourly poll). */
  async applyAllKeeps(): Promise<void> {
    for (const s of await this.deps.store.keepingShows()) await this.applyKeep(s.id, s.keepNewest);
  }

  /** The queue finished a download (`download.completed`): a copy's file is ready. */
  async onDownloaded(e: { itemId: string | null; destination: string | null }): Promise<void> {
    if (!e.itemId?.startsWith(ITEM_PREFIX)) return;
    const copyId = e.itemId.slice(ITEM_PREFIX.length);
    await this.one(async () => {
      // removed while its last bytes arrived: the file nobody asks for goes too
      if (!(await this.deps.store.copy(copyId))) {
        if (e.destination) await rm(this.pathOf({ destination: e.destination }), { force: true });
        return;
      }
      await this.settle(copyId);
    });
  }

  /** Records a finished copy as ready with its size (null when its file is not there); a copy nobody wants any more goes. */
  private async settle(copyId: string): Promise<number | null> {
    const copy = await this.deps.store.copy(copyId);
    if (!copy) return null;
    const bytes = await this.sizeOf(copy);
    if (bytes === null) return null;
    if (copy.state !== 'ready') await this.deps.store.copyReady(copyId, bytes, this.now());
    return bytes;
  }

  private async sizeOf(copy: Pick<CopyRow, 'destination'>): Promise<number | null> {
    try {
      const s = await stat(this.pathOf(copy));
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  }

  /** At start: copies the queue finished while the event was missed are recorded; orphans go. */
  async start(): Promise<void> {
    for (const c of await this.deps.store.queuedCopies()) {
      const job = c.job_id ? await this.deps.downloads.progress(c.job_id) : null;
      if (job?.state === 'completed') await this.settle(c.id);
    }
    await this.sweep();
  }

  /** The member's ready offline copy of an episode, or null (then the enclosure is streamed). */
  async fileOf(userId: string, episodeId: string): Promise<AudioFile | null> {
    const copy = await this.deps.store.readyCopyOf(userId, episodeId);
    if (!copy || (await this.sizeOf(copy)) === null) return null;
    return { path: this.pathOf(copy), type: copy.audio_type };
  }
}
