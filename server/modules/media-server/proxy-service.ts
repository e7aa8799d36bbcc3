// The media server's two proxies (Authentication rule 6: no token reaches a browser).
//  - image(): a library picture of the configured server, fetched with the shared token through
//    the adapter's image() (the server's own resizer), resized here with sharp to the asked box
//    (webp for browsers that take it, else jpeg) and kept in a bounded disk cache under DATA_DIR,
//    so a grid of posters costs the server one request per picture and size.
//  - stream(): a film's file for the browser's <video>: its metadata, the first part, and the part
//    with the browser's Range and If-Range passed through unchanged; the server's status (200, 206,
//    416) and its Content-Range, Accept-Ranges and Content-Length come back as it sent them. The
//    bytes are streamed, never buffered; the caller's signal (the browser leaving) stops the
//    upstream read. No transcoding: episodes and shows are refused in a sentence.
// A member's private library (PrivateSections) is theirs alone: another member's picture or film is
// a 404, admins included. A picture's path carries its item's ratingKey; the item's section comes
// from what the library last read (remembered) or one metadata call, remembered for a while too; a
// film's section is kept with its part key, and checked against the caller on every request.
// Failures are sentences: not configured is 404 (rule 7: nothing to show), the server down or
// refusing the shared token is 502 with what to do, and the connection hears of it (reportShared).
import type { default as Sharp } from 'sharp';
import type { PartResponse } from '../../adapters/media-server/plex.js';
import { isMediaServerOutage, mediaServerAppError, mediaServerFailure } from '../../adapter-errors/media-server.js';
import { BadRequestError, NotFoundError, UnprocessableError, UpstreamError } from '../../errors.js';
import type { UserActor } from '../../actor.js';
import type { Logger } from '../../platform/logger.js';
import { Semaphore } from '../../platform/semaphore.js';
import { ImageDiskCache } from './img-cache.js';
import type { MediaConnection, PrivateSections, SectionVisibility, SharedServer } from './parts.js';

/** Bytes of resized pictures kept on disk. */
export const IMG_CACHE_MAX_BYTES = 128 * 1024 * 1024;
/** How long a film's part key is reused before its metadata is read again. */
const PART_KEY_TTL_MS = 5 * 60_000;
const PART_KEYS_MAX = 500;
/** The picture paths the server hands out: its metadata images, nothing absolute, no dot segments. */
const LIBRARY_IMAGE = /^\/library\/metadata\/(\d{1,12})\/(thumb|art|banner|clearLogo)(\/\d{1,14})?$/;

export interface MediaProxyDeps {
  connection: MediaConnection;
  /** Members' private sections: another member's picture or film is a 404. */
  privateSections: PrivateSections;
  /** Folder of the picture cache (DATA_DIR/cache/media-img). */
  cacheDir: string;
  cacheMaxBytes?: number;
  logger: Logger;
  now?: () => number;
}

export interface ProxiedImage {
  contentType: 'image/webp' | 'image/jpeg';
  bytes: Buffer;
  /** A strong validator of these bytes (the cache file's name). */
  etag: string;
  /** Served from the disk cache without asking the server. */
  cached: boolean;
}

export interface StreamOptions {
  method: 'GET' | 'HEAD';
  range?: string;
  ifRange?: string;
  signal?: AbortSignal;
}

const NOT_CONFIGURED = 'No media server is connected to Hearth yet.';

let sharpModule: Promise<typeof Sharp> | null = null;
/** sharp, loaded on the first picture (start-up stays light: test/unit/startup-imports.test.ts). */
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

export class MediaProxy {
  private readonly cache: ImageDiskCache;
  private readonly inflight = new Map<string, Promise<ProxiedImage>>();
  private readonly resizing = new Semaphore(2);
  private readonly partKeys = new Map<string, { key: string; sectionId: string | null; rating: string | null; at: number }>();
  private readonly now: () => number;

  constructor(private readonly deps: MediaProxyDeps) {
    this.cache = new ImageDiskCache(deps.cacheDir, deps.cacheMaxBytes ?? IMG_CACHE_MAX_BYTES, deps.logger);
    this.now = deps.now ?? Date.now;
  }

  cacheUsage(): { bytes: number; files: number } {
    return this.cache.usage();
  }

  private async sharedOr404(): Promise<SharedServer> {
    const shared = await this.deps.connection.shared();
    if (!shared) throw new NotFoundError(NOT_CONFIGURED, 'media_not_configured');
    return shared;
  }

  /** A server failure as a sentence for the person asking; the connection hears about outages and a refused token. */
  private async upstream(err: unknown, notFound: string): Promise<never> {
    if (mediaServerFailure(err, 'server') === 'unauthorized') await this.deps.connection.reportShared('unauthorized');
    else if (isMediaServerOutage(err)) await this.deps.connection.reportShared('unreachable');
    throw mediaServerAppError(err, { notFound });
  }

  // ---- /img ------------------------------------------------------------------------------------

  /** A library picture in a w×h box; `accept` is the browser's Accept header (webp when it takes it). */
  async image(actor: UserActor, q: { path: string; w: number; h: number }, accept?: string): Promise<ProxiedImage> {
    // only the server's own metadata pictures: no other host, no dot segments, no escapes
    const m = LIBRARY_IMAGE.exec(q.path);
    if (!m) throw new BadRequestError('That is not a picture from the media library.', undefined, 'invalid_image_path');
    const shared = await this.sharedOr404();
    // before the disk cache: its pictures are shared by everyone who may see them
    await this.assertVisible(actor, shared, m[1]!);
    const format: 'webp' | 'jpeg' = accept?.includes('image/webp') ? 'webp' : 'jpeg';
    // the same picture from another server is another picture
    const name = ImageDiskCache.nameOf({ path: `${shared.machineIdentifier}${q.path}`, w: q.w, h: q.h, format });
    const contentType = format === 'webp' ? 'image/webp' : 'image/jpeg';
    const hit = await this.cache.get(name);
    if (hit) return { contentType, bytes: hit, etag: `"${name}"`, cached: true };
    const running = this.inflight.get(name);
    if (running) return running;
    const work = this.fetchAndResize(shared, q, format, name).finally(() => this.inflight.delete(name));
    this.inflight.set(name, work);
    return work;
  }

  private async fetchAndResize(shared: SharedServer, q: { path: string; w: number; h: number }, format: 'webp' | 'jpeg', name: string): Promise<ProxiedImage> {
    let source: Buffer;
    try {
      source = (await shared.client.image(shared.token, q.path, { width: q.w, height: q.h })).bytes;
    } catch (err) {
      return this.upstream(err, 'That picture is not on the media server.');
    }
    const sharp = await loadSharp();
    let bytes: Buffer;
    try {
      bytes = await this.resizing.run(() => {
        const pipeline = sharp(source, { failOn: 'error', limitInputPixels: 64_000_000 }).rotate().resize(q.w, q.h, { fit: 'cover', position: 'attention' });
        return (format === 'webp' ? pipeline.webp({ quality: 78 }) : pipeline.jpeg({ quality: 80, mozjpeg: true })).toBuffer();
      });
    } catch {
      throw new UpstreamError('media_image_unreadable', 'The media server sent a picture Hearth could not read.');
    }
    await this.cache.put(name, bytes);
    return { contentType: format === 'webp' ? 'image/webp' : 'image/jpeg', bytes, etag: `"${name}"`, cached: false };
  }

  /** Another member's private item is a 404 (the same answer as a picture that is not there). */
  private async assertVisible(actor: UserActor, shared: SharedServer, ratingKey: string): Promise<void> {
    const sections = await this.deps.privateSections.viewFor(actor.id);
    let sectionId = this.deps.privateSections.sectionOf(ratingKey);
    let rating = this.deps.privateSections.ratingOf(ratingKey);
    if (sectionId === undefined || rating === undefined) {
      let item;
      try {
        item = await shared.client.metadata(shared.token, ratingKey);
      } catch (err) {
        return this.upstream(err, 'That picture is not on the media server.');
      }
      if (!item) throw new NotFoundError('That picture is not on the media server.');
      this.deps.privateSections.remember([item]);
      sectionId = item.librarySectionId;
      rating = item.contentRating;
    }
    if (!sections.sees({ librarySectionId: sectionId, contentRating: rating })) throw new NotFoundError('That picture is not on the media server.');
  }

  // ---- /stream/:ratingKey ----------------------------------------------------------------------

  /** A film's bytes as the server sends them (Range passed through); destroy `body` to stop reading. */
  async stream(actor: UserActor, ratingKey: string, opts: StreamOptions): Promise<PartResponse> {
    const shared = await this.sharedOr404();
    const sections = await this.deps.privateSections.viewFor(actor.id);
    const cacheKey = `${shared.machineIdentifier}/${ratingKey}`;
    const known = this.partKeys.get(cacheKey);
    const fresh = known && this.now() - known.at < PART_KEY_TTL_MS ? known : null;
    const { key: partKey, sectionId, rating } = fresh ?? (await this.partKeyOf(shared, ratingKey, sections));
    if (!sections.sees({ librarySectionId: sectionId, contentRating: rating })) throw new NotFoundError('That title is not in the library.');
    try {
      return await this.part(shared, partKey, opts);
    } catch (err) {
      // the file was replaced since (its key carries a change stamp): read the metadata once more
      if (fresh && mediaServerFailure(err) === 'not_found') {
        this.partKeys.delete(cacheKey);
        const again = await this.partKeyOf(shared, ratingKey, sections);
        return this.part(shared, again.key, opts).catch((again: unknown) => this.upstream(again, 'That film’s file is not on the media server any more.'));
      }
      if (opts.signal?.aborted) throw err;
      return this.upstream(err, 'That film’s file is not on the media server any more.');
    }
  }

  private part(shared: SharedServer, partKey: string, opts: StreamOptions): Promise<PartResponse> {
    return shared.client.part(shared.token, partKey, { method: opts.method, range: opts.range, ifRange: opts.ifRange, signal: opts.signal });
  }

  private async partKeyOf(shared: SharedServer, ratingKey: string, sections: SectionVisibility): Promise<{ key: string; sectionId: string | null; rating: string | null }> {
    let item;
    try {
      item = await shared.client.metadata(shared.token, ratingKey);
    } catch (err) {
      return this.upstream(err, 'That title is not in the library.');
    }
    if (!item) throw new NotFoundError('That title is not in the library.');
    this.deps.privateSections.remember([item]);
    // another member's home video, or a title above the member's Media level: the same 404 as a title that is not there, before anything else is said of it
    if (!sections.sees(item)) throw new NotFoundError('That title is not in the library.');
    if (item.type !== 'movie') {
      throw new UnprocessableError('not_playable', item.type === 'episode' ? 'Episodes do not play in the browser yet. Watch them in the Plex app on the TV or phone.' : 'Only films play in the browser. Open an episode in the Plex app to watch it.');
    }
    const part = item.parts[0];
    if (!part) throw new UnprocessableError('not_playable', 'This film has no file that can be played.');
    const cacheKey = `${shared.machineIdentifier}/${ratingKey}`;
    this.partKeys.delete(cacheKey);
    const entry = { key: part.key, sectionId: item.librarySectionId, rating: item.contentRating, at: this.now() };
    this.partKeys.set(cacheKey, entry);
    if (this.partKeys.size > PART_KEYS_MAX) this.partKeys.delete(this.partKeys.keys().next().value!);
    return entry;
  }
}
