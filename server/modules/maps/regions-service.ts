// The admin's map regions: the catalog with what is installed and downloading, a download through
// the household's durable queue (resumable; the queue checks size and checksum, and a region file
// whose checksum disagrees with the catalog fails at once), the install once the queue has the
// whole file (its PMTiles header read and checked before the region is listed), and removal.
import { rm } from 'node:fs/promises';
import { assertAdmin, type Actor } from '../../actor.js';
import { ConflictError, NotFoundError, UnprocessableError, UpstreamError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { DiskSpace } from '../../platform/disk.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import { sleep } from '../../platform/sleep.js';
import type { DownloadJob, JobProgress, NewJob } from '../downloads/schema.js';
import type { GeocoderService } from './geocoder-service.js';
import type { RegionFiles } from './region-files.js';
import type { CatalogRegion, MapCatalog, MapDownloadEventMap, Region } from './schema.js';
import type { MapsStore } from './store.js';
import { regionView } from './tiles-service.js';

/** What the maps module asks of the download queue. */
export interface MapDownloadQueue {
  enqueue(actor: Actor, job: NewJob): Promise<DownloadJob>;
  progress(id: string): Promise<JobProgress | null>;
  cancel(actor: Actor, id: string): Promise<unknown>;
  destinationPath(destination: string): string;
}

export interface MapRegionsDeps {
  store: MapsStore;
  files: RegionFiles;
  catalog: MapCatalog;
  downloads: () => MapDownloadQueue;
  /** Place search: a region's names are read into it at install and taken out at removal. */
  places: Pick<GeocoderService, 'indexRegion' | 'removeRegion' | 'ensureCities'>;
  disk: DiskSpace;
  dataDir: string;
  clock: Clock;
  logger: Logger;
  /** How often a download's follower looks at the queue (tests shorten it). */
  pollMs?: number;
}

const ITEM_PREFIX = 'map:';
const destinationOf = (id: string) => `maps/${id}.pmtiles`;

export interface RegionDownloadSink {
  signal: AbortSignal;
  send<E extends keyof MapDownloadEventMap>(event: E, data: MapDownloadEventMap[E]): void;
}

export class MapRegionsService {
  /** regionId → the queue job of its running download. */
  private readonly jobs = new Map<string, string>();
  /** regionId → why its last install failed (told to the download's follower). */
  private readonly failures = new Map<string, string>();
  private readonly installing = new Map<string, Promise<Region | null>>();

  constructor(private readonly deps: MapRegionsDeps) {}

  private region(id: string): CatalogRegion {
    const r = this.deps.catalog.regions.find((c) => c.id === id);
    if (!r) throw new NotFoundError('There is no such region in the map catalog.');
    return r;
  }

  async catalogView(actor: Actor) {
    assertAdmin(actor);
    const installed = new Set((await this.deps.store.listRegions()).map((r) => r.id));
    return {
      regions: this.deps.catalog.regions.map((r) => ({
        id: r.id,
        name: r.name,
        bbox: r.bbox,
        minzoom: r.minzoom,
        maxzoom: r.maxzoom,
        bytes: r.bytes,
        hasRouting: r.routing !== undefined,
        installed: installed.has(r.id),
        downloading: this.jobs.has(r.id),
      })),
      freeBytes: await this.deps.disk.available(this.deps.dataDir),
    };
  }

  /** Queues the region's file (an already queued one is handed back); refusals are thrown before any stream opens. */
  async startDownload(actor: Actor, regionId: string): Promise<{ regionId: string; jobId: string }> {
    assertAdmin(actor);
    const r = this.region(regionId);
    this.failures.delete(regionId);
    const job = await this.deps.downloads().enqueue(actor, {
      kind: 'map',
      target: r.url,
      destination: destinationOf(r.id),
      label: `Map of ${r.name}`,
      itemId: `${ITEM_PREFIX}${r.id}`,
      expectedBytes: r.bytes,
      sha256: r.sha256,
      hostClass: 'maps',
    });
    this.jobs.set(regionId, job.id);
    return { regionId, jobId: job.id };
  }

  /** Follows a queued download until the region is installed (done) or it fails (thrown, a sentence). */
  async follow(started: { regionId: string; jobId: string }, sink: RegionDownloadSink): Promise<void> {
    const { regionId, jobId } = started;
    let last = '';
    try {
      while (!sink.signal.aborted) {
        const failed = this.failures.get(regionId);
        if (failed) throw new UnprocessableError('map_region_unreadable', failed);
        const job = await this.deps.downloads().progress(jobId);
        if (!job) throw new ConflictError('map_download_gone', 'The download was removed from the queue. Start it again.');
        if (job.state === 'failed') throw failedDownload(job.lastError);
        if (job.state === 'cancelled') throw new ConflictError('map_download_cancelled', 'The download was cancelled in the download queue.');
        if (job.state === 'completed') {
          sink.send('progress', { state: 'installing', bytesDone: job.bytesDone, bytesTotal: job.bytesTotal, message: null });
          const region = await this.install(regionId);
          if (region) return sink.send('done', { region });
          continue;
        }
        const state = job.state === 'running' ? 'downloading' : job.lastError ? 'retrying' : 'waiting';
        const event = { state, bytesDone: Math.round(job.bytesDone), bytesTotal: job.bytesTotal, message: state === 'retrying' ? `The download stopped and will continue from where it stopped. ${job.lastError ?? ''}`.trim() : null } as const;
        const key = JSON.stringify(event);
        if (key !== last) sink.send('progress', event);
        last = key;
        await sleep(this.deps.pollMs ?? 500, sink.signal);
      }
    } finally {
      const job = await this.deps.downloads().progress(jobId).catch(() => null);
      if (!job || job.state !== 'pending' && job.state !== 'running') this.jobs.delete(regionId);
    }
  }

  /** The queue finished a download (download.completed): a map region's file is installed. */
  async onDownloaded(e: { itemId: string | null }): Promise<void> {
    if (!e.itemId?.startsWith(ITEM_PREFIX)) return;
    const regionId = e.itemId.slice(ITEM_PREFIX.length);
    this.jobs.delete(regionId);
    await this.install(regionId);
  }

  /** Checks the downloaded file and lists the region; null (and the reason kept) when the file is not a usable region. */
  private install(regionId: string): Promise<Region | null> {
    const running = this.installing.get(regionId);
    if (running) return running;
    const work = this.installNow(regionId).finally(() => this.installing.delete(regionId));
    this.installing.set(regionId, work);
    return work;
  }

  private async installNow(regionId: string): Promise<Region | null> {
    const r = this.deps.catalog.regions.find((c) => c.id === regionId);
    if (!r) return null;
    const file = this.deps.downloads().destinationPath(destinationOf(r.id));
    const current = await this.deps.store.getRegion(r.id);
    if (current && current.sha256 === r.sha256) return regionView(current);
    try {
      const info = await this.deps.files.inspect(file);
      if (!info.vectorTiles) throw new Error('it holds pictures, not vector tiles');
      if (info.tileCompression === 'other') throw new Error('its tiles are compressed in a way Hearth cannot serve');
    } catch (err) {
      const reason = `The map file for ${r.name} is not a region Hearth can show (${(err as Error).message.slice(0, 120)}). Check the map catalog.`;
      this.failures.set(r.id, reason);
      this.deps.logger.warn({ regionId: r.id }, 'a downloaded map region could not be read');
      await rm(file, { force: true });
      return null;
    }
    await this.deps.files.closeRegion(r.id);
    const record = { id: r.id, name: r.name, bbox: r.bbox, minZoom: r.minzoom, maxZoom: r.maxzoom, bytes: r.bytes, sha256: r.sha256, filePath: destinationOf(r.id), sourceUrl: r.url, installedAt: this.deps.clock.now().toISOString() };
    await this.deps.store.putRegion(record);
    try {
      const named = await this.deps.places.indexRegion({ id: r.id, name: r.name, maxZoom: r.maxzoom }, [r.id, record.installedAt, file]);
      await this.deps.places.ensureCities();
      this.deps.logger.info({ regionId: r.id, named }, 'map region installed');
    } catch (err) {
      // the map itself works; its streets are not found by search until it is installed again
      this.deps.logger.error({ err, regionId: r.id }, 'a map region\'s place names could not be read');
    }
    return regionView(record);
  }

  async remove(actor: Actor, regionId: string): Promise<void> {
    assertAdmin(actor);
    const region = await this.deps.store.getRegion(regionId);
    if (!region) throw new NotFoundError('That map region is not installed.');
    const jobId = this.jobs.get(regionId);
    if (jobId) await this.deps.downloads().cancel(actor, jobId).catch(() => undefined);
    await this.deps.store.deleteRegion(regionId);
    await this.deps.places.removeRegion(regionId);
    await this.deps.files.closeRegion(regionId);
    const file = resolveInside(this.deps.dataDir, region.filePath);
    if (file) await rm(file, { force: true });
  }
}

function failedDownload(lastError: string | null): UpstreamError | UnprocessableError {
  if (lastError && /checksum|bytes, not the/.test(lastError)) {
    return new UnprocessableError('map_checksum_mismatch', 'The downloaded map file does not match the catalog (its checksum or size differs), so it was not installed. The catalog may be out of date.');
  }
  return new UpstreamError('map_download_failed', `The map download stopped. ${lastError ?? ''} Start it again; it continues from where it stopped.`.replace(/\s+/g, ' '));
}
