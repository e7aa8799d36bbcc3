// The admin's map regions: the catalog with what is installed and downloading, a download through
// the household's durable queue (resumable; the queue checks size and checksum, and a region file
// whose checksum disagrees with the catalog fails at once), the install once the queue has the
// whole file (its PMTiles header read and checked before the region is listed), and removal.
import { mkdir, rm, stat } from 'node:fs/promises';
import { assertAdmin, type Actor } from '../../actor.js';
import type { Routino } from '../../adapters/routing/routino.js';
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
import type { MapsStore, RegionRecord } from './store.js';
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
  /** Routino, when it is installed (found at each use, so installing it later needs no restart). */
  routing: () => Pick<Routino, 'buildGraph'> | null;
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
const ROADS_PREFIX = 'map-roads:';
const destinationOf = (id: string) => `maps/${id}.pmtiles`;
const roadsOf = (id: string) => `maps/${id}.osm.pbf`;
const graphDirOf = (id: string) => `maps/${id}-directions`;
/** planetsplitter on a town takes 0.1 s; a county a minute or two on this kind of machine. */
const GRAPH_BUILD_TIMEOUT_MS = 20 * 60_000;

export interface StartedDownload {
  regionId: string;
  jobId: string;
  roadsJobId: string | null;
}

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
  private readonly building = new Map<string, Promise<void>>();

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

  /** Queues the region's file (and its roads, when listed); a job already queued is handed back. Refusals are thrown before any stream opens. */
  async startDownload(actor: Actor, regionId: string): Promise<StartedDownload> {
    assertAdmin(actor);
    const r = this.region(regionId);
    this.failures.delete(regionId);
    const queue = this.deps.downloads();
    const job = await queue.enqueue(actor, { kind: 'map', target: r.url, destination: destinationOf(r.id), label: `Map of ${r.name}`, itemId: `${ITEM_PREFIX}${r.id}`, expectedBytes: r.bytes, sha256: r.sha256, hostClass: 'maps' });
    const roads = r.routing
      ? await queue.enqueue(actor, { kind: 'map', target: r.routing.url, destination: roadsOf(r.id), label: `Roads of ${r.name}`, itemId: `${ROADS_PREFIX}${r.id}`, expectedBytes: r.routing.bytes, sha256: r.routing.sha256, hostClass: 'maps' })
      : null;
    this.jobs.set(regionId, job.id);
    return { regionId, jobId: job.id, roadsJobId: roads?.id ?? null };
  }

  /** Follows a queued download until the region is installed and its directions built (done), or it fails (thrown, a sentence). */
  async follow(started: StartedDownload, sink: RegionDownloadSink): Promise<void> {
    const { regionId, jobId, roadsJobId } = started;
    try {
      let region: Region | null = null;
      while (!region && !sink.signal.aborted) {
        await this.watchJob(jobId, 'downloading', sink);
        const failed = this.failures.get(regionId);
        if (failed) throw new UnprocessableError('map_region_unreadable', failed);
        const job = await this.deps.downloads().progress(jobId);
        sink.send('progress', { state: 'installing', bytesDone: job?.bytesDone ?? 0, bytesTotal: job?.bytesTotal ?? null, message: null });
        region = await this.install(regionId);
        if (!region && this.failures.has(regionId)) throw new UnprocessableError('map_region_unreadable', this.failures.get(regionId)!);
      }
      if (!region) return;
      if (roadsJobId) {
        try {
          await this.watchJob(roadsJobId, 'directions', sink);
          sink.send('progress', { state: 'directions', bytesDone: 0, bytesTotal: null, message: 'Getting directions ready.' });
          if ((await this.deps.store.getRegion(regionId))?.routing !== 'ready') await this.buildDirections(regionId);
        } catch (err) {
          if (sink.signal.aborted) return;
          // the map itself is installed and works: the region says why directions do not
          await this.deps.store.setRouting(regionId, 'failed', (err as Error).message);
        }
        const now = await this.deps.store.getRegion(regionId);
        if (now) region = regionView(now);
      }
      sink.send('done', { region });
    } finally {
      const job = await this.deps.downloads().progress(jobId).catch(() => null);
      if (!job || (job.state !== 'pending' && job.state !== 'running')) this.jobs.delete(regionId);
    }
  }

  /** Sends a job's progress until it completes; throws its failure as a sentence. */
  private async watchJob(jobId: string, active: 'downloading' | 'directions', sink: RegionDownloadSink): Promise<void> {
    let last = '';
    for (;;) {
      sink.signal.throwIfAborted();
      const job = await this.deps.downloads().progress(jobId);
      if (!job) throw new ConflictError('map_download_gone', 'The download was removed from the queue. Start it again.');
      if (job.state === 'failed') throw failedDownload(job.lastError);
      if (job.state === 'cancelled') throw new ConflictError('map_download_cancelled', 'The download was cancelled in the download queue.');
      if (job.state === 'completed') return;
      const state = job.state === 'running' ? active : job.lastError ? 'retrying' : 'waiting';
      const event = { state, bytesDone: Math.round(job.bytesDone), bytesTotal: job.bytesTotal, message: state === 'retrying' ? `The download stopped and will continue from where it stopped. ${job.lastError ?? ''}`.trim() : null } as const;
      const key = JSON.stringify(event);
      if (key !== last) sink.send('progress', event);
      last = key;
      await sleep(this.deps.pollMs ?? 500, sink.signal);
    }
  }

  /** Builds the region's routing graph from its downloaded roads (once at a time per region). */
  buildDirections(regionId: string): Promise<void> {
    const running = this.building.get(regionId);
    if (running) return running;
    const work = this.buildDirectionsNow(regionId).finally(() => this.building.delete(regionId));
    this.building.set(regionId, work);
    return work;
  }

  private async buildDirectionsNow(regionId: string): Promise<void> {
    const region = await this.deps.store.getRegion(regionId);
    if (!region) return;
    const routing = this.deps.routing();
    if (!routing) {
      const why = 'Directions need Routino on the Hearth computer. An admin can install it (Debian: apt install routino) and download the region again.';
      await this.deps.store.setRouting(regionId, 'failed', why);
      throw new Error(why);
    }
    const dir = this.deps.downloads().destinationPath(graphDirOf(regionId));
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await this.deps.store.setRouting(regionId, 'building', null);
    try {
      await routing.buildGraph({ source: this.deps.downloads().destinationPath(roadsOf(regionId)), dir, prefix: regionId, signal: AbortSignal.timeout(GRAPH_BUILD_TIMEOUT_MS), timeoutMs: GRAPH_BUILD_TIMEOUT_MS });
    } catch (err) {
      this.deps.logger.error({ err, regionId }, 'the routing graph could not be built');
      const why = 'The roads of this region could not be made into directions. Download the region again; if it keeps happening, the map catalog may list a broken roads file.';
      await this.deps.store.setRouting(regionId, 'failed', why);
      throw new Error(why, { cause: err });
    }
    await this.deps.store.setRouting(regionId, 'ready', null);
    this.deps.logger.info({ regionId }, 'directions ready for a map region');
  }

  /** The queue finished a download (download.completed): a map region's file is installed. */
  async onDownloaded(e: { itemId: string | null }): Promise<void> {
    if (e.itemId?.startsWith(ROADS_PREFIX)) {
      // the tiles are installed first; a region whose roads arrive before its map is built at its install
      if (await this.deps.store.getRegion(e.itemId.slice(ROADS_PREFIX.length))) await this.buildDirections(e.itemId.slice(ROADS_PREFIX.length)).catch(() => undefined);
      return;
    }
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
    const record: RegionRecord = { id: r.id, name: r.name, bbox: r.bbox, minZoom: r.minzoom, maxZoom: r.maxzoom, bytes: r.bytes, sha256: r.sha256, filePath: destinationOf(r.id), sourceUrl: r.url, installedAt: this.deps.clock.now().toISOString(), routing: r.routing ? 'building' : 'none', routingError: null };
    await this.deps.store.putRegion(record);
    // roads that arrived before the map are made into directions now (later ones at their arrival)
    if (r.routing && (await stat(this.deps.downloads().destinationPath(roadsOf(r.id))).catch(() => null))) void this.buildDirections(r.id).catch(() => undefined);
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
    await rm(this.deps.downloads().destinationPath(roadsOf(regionId)), { force: true });
    await rm(this.deps.downloads().destinationPath(graphDirOf(regionId)), { recursive: true, force: true });
  }
}

function failedDownload(lastError: string | null): UpstreamError | UnprocessableError {
  if (lastError && /checksum|bytes, not the/.test(lastError)) {
    return new UnprocessableError('map_checksum_mismatch', 'The downloaded map file does not match the catalog (its checksum or size differs), so it was not installed. The catalog may be out of date.');
  }
  return new UpstreamError('map_download_failed', `The map download stopped. ${lastError ?? ''} Start it again; it continues from where it stopped.`.replace(/\s+/g, ' '));
}
