// The video cache (/api/vstream, issue 35): copies only of sources whose licence allows one — a
// PeerTube video under a Creative Commons licence or in the public domain, a podcast's video
// episode (offered for download by its publisher). Never YouTube (its terms forbid downloading).
// A copy is fetched by the durable download queue into DATA_DIR/vstream, served with Range through
// the path guard, and the least recently watched copies go when the admin's cap is passed (an
// evicted id is then unknown: 404). A PeerTube copy is the household's; a podcast episode's copy is
// its member's (their episode), like the episode itself.
import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { SYSTEM_ACTOR, type UserActor } from '../../actor.js';
import { ConflictError, NotFoundError, ServiceUnavailableError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { HubService } from './hub-service.js';
import type { VideosPorts } from './ports.js';
import type { VstreamBody, VstreamEntry, VstreamState } from './schema.js';
import type { VideoSettingsService } from './settings-service.js';
import { isLicenceClean, pickFile } from './sources.js';
import type { EntryRow, VideosStore } from './store.js';

export const VSTREAM_ITEM_PREFIX = 'vstream:';

export interface VstreamDeps {
  store: VideosStore;
  hub: HubService;
  settings: VideoSettingsService;
  downloads: VideosPorts['downloads'];
  podcastVideos: VideosPorts['podcastVideos'];
  clock: Clock;
  logger: Logger;
  /** Read at each call: offline mode may change while Hearth runs. */
  offline(): boolean;
  /** Who switched offline mode on and how it goes off, for the refusal's sentence. */
  offlineWho(): string;
}

const visible = (actor: UserActor, e: EntryRow) => e.ownerId === null || e.ownerId === actor.id;

export class VstreamService {
  constructor(private readonly deps: VstreamDeps) {}

  private async state(e: EntryRow): Promise<{ state: VstreamState; error: string | null }> {
    if (e.ready) return { state: 'ready', error: null };
    const job = e.jobId ? await this.deps.downloads.progress(e.jobId) : null;
    if (!job || job.state === 'failed' || job.state === 'cancelled') return { state: 'failed', error: job?.lastError ?? 'The copy was not made (its download was removed from the queue). Save it again.' };
    if (job.state === 'running') return { state: 'downloading', error: null };
    return { state: 'queued', error: job.lastError };
  }

  private async answer(e: EntryRow): Promise<VstreamEntry> {
    const { state, error } = await this.state(e);
    return { id: e.id, source: e.source, sourceId: e.sourceId, title: e.title, licence: e.licence, state, error, bytes: e.bytes, createdAt: e.createdAt, lastWatchedAt: e.lastWatchedAt, streamUrl: state === 'ready' ? `/api/vstream/${e.id}` : null };
  }

  async list(actor: UserActor): Promise<{ entries: VstreamEntry[]; usedBytes: number; capBytes: number }> {
    const rows = (await this.deps.store.entries()).filter((e) => visible(actor, e));
    return { entries: await Promise.all(rows.map((e) => this.answer(e))), usedBytes: await this.deps.store.usedBytes(), capBytes: (await this.deps.settings.get()).vstreamCapBytes };
  }

  async usage(): Promise<{ usedBytes: number }> {
    return { usedBytes: await this.deps.store.usedBytes() };
  }

  /** Ready copies the caller may watch (the hub lists them; they play offline too). */
  async ready(actor: UserActor): Promise<VstreamEntry[]> {
    return (await this.list(actor)).entries.filter((e) => e.state === 'ready');
  }

  /** Keeps a copy of a licence-clean video: an entry and a job on the download queue (the same source twice: the same entry). */
  async save(actor: UserActor, body: VstreamBody): Promise<{ id: string; state: VstreamState }> {
    if (body.source === 'youtube') {
      throw new UnprocessableError('not_cacheable', 'YouTube’s terms do not allow keeping a copy of its videos, so they are not cached; they play in YouTube’s own player.');
    }
    let existing = await this.deps.store.entryBySource(body.source, body.source === 'peertube' ? body.id.toLowerCase() : body.id);
    if (existing && visible(actor, existing)) {
      const { state } = await this.state(existing);
      if (state !== 'failed') return { id: existing.id, state };
      // a copy that failed (or whose download was removed) is started again, under a new id
      await this.deps.store.deleteEntry(existing.id);
      existing = null;
    }
    if (this.deps.offline()) throw new ServiceUnavailableError('offline_mode', `Hearth is in offline mode, so no new video can be saved. Videos saved before still play. ${this.deps.offlineWho()}`);
    const cap = (await this.deps.settings.get()).vstreamCapBytes;
    const id = randomUUID();
    const base = { id, jobId: null, ready: false, bytes: null, createdAt: this.deps.clock.now().toISOString(), fetchedAt: null, lastWatchedAt: null, file: `vstream/${id}.mp4` };
    let row: EntryRow;
    let size: number | null;
    if (body.source === 'peertube') {
      const uuid = body.id.toLowerCase();
      const instance = await this.deps.hub.instance(body.instance, uuid);
      const v = await this.deps.hub.peertube(instance, uuid);
      if (!isLicenceClean(v.licenceId)) {
        throw new UnprocessableError('not_cacheable', `This PeerTube video’s licence (${v.licence ?? 'none given'}) does not allow keeping a copy; only Creative Commons and public-domain videos are cached. It still plays from its instance.`);
      }
      const file = pickFile(v.files);
      if (!file) throw new UnprocessableError('not_cacheable', 'This PeerTube video has no file Hearth can keep.');
      size = file.size;
      row = { ...base, source: 'peertube', sourceId: uuid, title: v.name, licence: v.licence, sourceUrl: file.url, mime: 'video/mp4', ownerId: null };
    } else {
      const e = await this.deps.podcastVideos.episode(actor, body.id);
      if (!e) throw new NotFoundError('No such video episode.');
      // an enclosure's length is often 0 or wrong (reference §1.3): the queue is not told to expect it
      size = null;
      row = { ...base, source: 'podcast', sourceId: e.id, title: e.title, licence: null, sourceUrl: e.url, mime: e.type, ownerId: actor.id };
    }
    if (existing) throw new ConflictError('already_cached', 'This video is already being kept.');
    if (size !== null && size > cap) {
      throw new UnprocessableError('too_large_for_cache', `This video (${Math.ceil(size / 1024 / 1024)} MB) is larger than the whole video cache (${Math.floor(cap / 1024 / 1024)} MB). An admin can make the cache larger in Admin, Videos.`);
    }
    await this.deps.store.insertEntry(row);
    try {
      const [job] = await this.deps.downloads.enqueue(SYSTEM_ACTOR, [{ kind: 'video', target: row.sourceUrl, destination: row.file, label: `Video: ${row.title}`.slice(0, 200), itemId: `${VSTREAM_ITEM_PREFIX}${id}`, expectedBytes: size, hostClass: 'media' }]);
      await this.deps.store.setJob(id, job!.id);
    } catch (err) {
      await this.deps.store.deleteEntry(id);
      throw err;
    }
    return { id, state: 'queued' };
  }

  /** The copy's file for the player (Range answered by the route); watching it makes it the last to be evicted. */
  async open(actor: UserActor, id: string): Promise<{ path: string; mime: string }> {
    const e = await this.deps.store.entry(id);
    if (!e || !visible(actor, e)) throw new NotFoundError('No such cached video (it may have made room for newer ones).');
    if (!e.ready) throw new ConflictError('not_ready', 'This video is still being saved. It plays from its source meanwhile.');
    const path = this.deps.downloads.destinationPath(e.file);
    try {
      await stat(path);
    } catch {
      await this.deps.store.deleteEntry(id);
      throw new NotFoundError('No such cached video (its file is gone).');
    }
    await this.deps.store.watched(id, this.deps.clock.now().toISOString());
    return { path, mime: e.mime.startsWith('video/') ? e.mime : 'video/mp4' };
  }

  /** The queue finished a copy (download.completed): it is ready, and the cache is brought under its cap. */
  async onDownloaded(e: { itemId: string | null }): Promise<void> {
    if (!e.itemId?.startsWith(VSTREAM_ITEM_PREFIX)) return;
    const row = await this.deps.store.entry(e.itemId.slice(VSTREAM_ITEM_PREFIX.length));
    if (!row) return;
    const size = (await stat(this.deps.downloads.destinationPath(row.file)).catch(() => null))?.size;
    if (size === undefined) return;
    await this.deps.store.markReady(row.id, size, this.deps.clock.now().toISOString());
    await this.evict();
  }

  /**
   * Files of copies no entry names any more (a member's podcast copies go with the member, by the
   * database's cascade): removed. A download still running (.part) is left alone.
   */
  async sweepOrphans(): Promise<number> {
    const folder = path.dirname(this.deps.downloads.destinationPath('vstream/probe.mp4'));
    const names = await readdir(folder).catch(() => [] as string[]);
    const kept = new Set((await this.deps.store.entries()).map((e) => path.basename(e.file)));
    let removed = 0;
    for (const name of names) {
      if (name.endsWith('.part') || kept.has(name)) continue;
      await rm(this.deps.downloads.destinationPath(`vstream/${name}`), { force: true });
      removed++;
    }
    return removed;
  }

  /** The least recently watched copies go until the cache fits its cap. */
  async evict(): Promise<number> {
    const cap = (await this.deps.settings.get()).vstreamCapBytes;
    let used = await this.deps.store.usedBytes();
    let evicted = 0;
    for (const e of await this.deps.store.readyByAge()) {
      if (used <= cap) break;
      await rm(this.deps.downloads.destinationPath(e.file), { force: true });
      await this.deps.store.deleteEntry(e.id);
      used -= e.bytes ?? 0;
      evicted++;
      this.deps.logger.info({ entry: e.id, bytes: e.bytes }, 'video cache: least recently watched copy evicted');
    }
    return evicted;
  }
}
