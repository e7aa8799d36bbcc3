// Home videos (content type `mine`): a member's own uploads, received resumably (home-videos-routes.ts
// hands finished uploads here), checked by their first bytes, moved into the member's folder with
// a safe unique name and scanned (refresh?path= of that folder). The server's item (its ratingKey)
// is picked up when a later look finds the scan has it. Deleting removes Hearth's own file and
// rescans; the row stays as removed with its reason. A new upload is refused past the member's
// limits (the household's upload-limits setting: how many open uploads, how many bytes declared
// together) and when the disk cannot hold it beside every other open upload and the reserve.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '@tus/file-store';
import { assertAdmin, isOwner, type Actor, type UserActor } from '../../actor.js';
import type { PlexItem } from '../../adapters/media-server/plex.js';
import { mediaServerFailure } from '../../adapter-errors/media-server.js';
import type { AppSettingsStore } from '../../db/kv.js';
import { AppError, BadRequestError, NotFoundError, UnsupportedMediaError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import { formatSize, type DiskSpace } from '../../platform/disk.js';
import { lazyImport } from '../../platform/lazy.js';
import type { Logger } from '../../platform/logger.js';
import { resolveInside } from '../../platform/path-guard.js';
import type { MediaExportStore } from './export-store.js';
import type { MediaExportService } from './export-service.js';
import { imgUrl, toMediaItem } from './items.js';
import type { HomeVideoRow, MediaConnection, SectionRow } from './parts.js';
import { DEFAULT_MAX_OPEN_UPLOAD_BYTES, DEFAULT_MAX_OPEN_UPLOADS, HOME_VIDEO_TYPES, MAX_HOME_VIDEO_BYTES, UploadLimits, type HomeVideo, type HomeVideosResponse } from './schema.js';
import { serverPathOf } from './storage-service.js';

export interface HomeVideosDeps {
  store: MediaExportStore;
  exports: MediaExportService;
  connection: MediaConnection;
  clock: Clock;
  logger: Logger;
  /** Where unfinished uploads wait (under DATA_DIR). */
  uploadDir: string;
  /** How long an unfinished upload may wait for its next piece (default one day). */
  uploadExpiryMs?: number;
  maxBytes?: number;
  /** Where the household's upload limits are kept (UPLOAD_LIMITS_KEY). */
  settings: AppSettingsStore;
  /** The reserve check every large write makes. */
  disk: DiskSpace;
}

/** The app setting holding the household's upload limits. */
export const UPLOAD_LIMITS_KEY = 'media.uploadLimits';

/** An upload that is started and neither finished nor expired. */
interface OpenUpload {
  id: string;
  size: number;
  offset: number;
}

/** The picture of a home video in the list: a 16:9 frame, twice the page's 96×54 slot. */
export const HOME_VIDEO_THUMB = { w: 192, h: 108 };

/** How long an unfinished upload may wait for its next piece. */
export const UPLOAD_EXPIRY_MS = 24 * 60 * 60_000;

const EXT_BY_TYPE: Record<string, string> = { 'video/mp4': '.mp4', 'video/quicktime': '.mov', 'video/webm': '.webm', 'video/x-matroska': '.mkv', 'video/x-msvideo': '.avi', 'video/3gpp': '.3gp' };
const VIDEO_EXTS = new Set(Object.values(EXT_BY_TYPE).concat(['.m4v', '.mkv']));

/** The video container a file's first bytes show, or null (not a video Hearth takes). */
export function sniffVideo(head: Buffer): string | null {
  if (head.length >= 12 && head.toString('latin1', 4, 8) === 'ftyp') {
    const brand = head.toString('latin1', 8, 12);
    if (brand.startsWith('qt')) return 'video/quicktime';
    if (brand.startsWith('3g')) return 'video/3gpp';
    return 'video/mp4';
  }
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return head.includes(Buffer.from('webm')) ? 'video/webm' : 'video/x-matroska';
  if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'AVI ') return 'video/x-msvideo';
  return null;
}

async function readHead(file: string, n = 64): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of createReadStream(file, { start: 0, end: n - 1 })) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A title from the name the member's device gave (no folders, no extension). */
export function titleOf(name: string | null | undefined): string {
  const base = path.basename((name ?? '').replace(/\\/g, '/')).replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const clean = base.replace(/[\u0000-\u001f<>:"|?*]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120);
  return clean || 'Home video';
}

/** A file name safe on every disk: letters, digits and dashes, with a short unique tail. */
export function safeFileName(title: string, ext: string, unique: string): string {
  const slug =
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'video';
  return `${slug}-${unique}${ext}`;
}

/**
 * tus's file store makes its folder with a callback that throws on failure, outside any promise (an
 * uncaught exception when the data folder goes away meanwhile, as a test's does at close). Hearth's
 * store makes the folder synchronously instead; the method is private in the store's types, so it
 * is replaced on the subclass's prototype rather than overridden.
 */
const loadUploadStore = lazyImport(async () => {
  const { FileStore } = await import('@tus/file-store');
  class UploadStore extends FileStore {}
  Object.defineProperty(UploadStore.prototype, 'checkOrCreateDirectory', {
    value(this: { directory: string }): void {
      mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    },
  });
  return UploadStore;
});

export class HomeVideosService {
  private store: Promise<FileStore> | null = null;

  constructor(private readonly deps: HomeVideosDeps) {}

  /**
   * The resumable uploads' parts (tus), until each is finished and moved into a member's folder.
   * The tus packages are loaded with the first upload or clean-up, not at start.
   */
  uploads(): Promise<FileStore> {
    return (this.store ??= loadUploadStore().then((UploadStore) => new UploadStore({ directory: this.deps.uploadDir, expirationPeriodInMilliseconds: this.deps.uploadExpiryMs ?? UPLOAD_EXPIRY_MS })));
  }

  /** Removes the parts of uploads nobody finished in time (the scheduler calls it). */
  async cleanExpiredUploads(): Promise<number> {
    return (await this.uploads()).deleteExpired();
  }

  uploadFile(id: string): string | null {
    return resolveInside(this.deps.uploadDir, id);
  }

  /** Drops what is left of a finished (moved or refused) upload: its part, if any, and its record. */
  async forgetUpload(id: string): Promise<void> {
    const file = this.uploadFile(id);
    if (file) await rm(file, { force: true });
    await (await this.uploads()).configstore.delete(id);
  }

  get maxBytes(): number {
    return this.deps.maxBytes ?? MAX_HOME_VIDEO_BYTES;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /**
   * An unfinished upload's id names its owner: exactly `<userId>_<32 hex>` (home-videos-routes.ts
   * names them so); anything else, another member's included, is reported missing.
   */
  ownsUpload(actor: UserActor, uploadId: string): boolean {
    const sep = uploadId.lastIndexOf('_');
    return sep > 0 && uploadId.length === sep + 33 && /^[0-9a-f]{32}$/.test(uploadId.slice(sep + 1)) && isOwner(actor, uploadId.slice(0, sep));
  }

  /** What each member's open uploads may hold (the household's setting, or the defaults). */
  async uploadLimits(): Promise<UploadLimits> {
    const saved = UploadLimits.safeParse(await this.deps.settings.get(UPLOAD_LIMITS_KEY));
    return saved.success ? saved.data : { maxOpenUploads: DEFAULT_MAX_OPEN_UPLOADS, maxOpenBytes: DEFAULT_MAX_OPEN_UPLOAD_BYTES };
  }

  async adminUploadLimits(actor: Actor): Promise<UploadLimits> {
    assertAdmin(actor);
    return this.uploadLimits();
  }

  async setUploadLimits(actor: Actor, limits: UploadLimits): Promise<UploadLimits> {
    assertAdmin(actor);
    await this.deps.settings.set(UPLOAD_LIMITS_KEY, limits);
    return this.uploadLimits();
  }

  /** Every open upload (all members'), with the bytes it declared and has received. */
  private async openUploads(): Promise<OpenUpload[]> {
    const uploads = await this.uploads();
    const ids = (await uploads.configstore.list?.()) ?? [];
    const now = this.deps.clock.now().getTime();
    const expiry = uploads.getExpiration();
    const out: OpenUpload[] = [];
    for (const id of ids) {
      const up = await uploads.getUpload(id).catch(() => null);
      if (!up || up.size === undefined || up.offset >= up.size) continue;
      // an expired one is only waiting for the sweep: it takes no more bytes
      if (expiry > 0 && up.creation_date && Date.parse(up.creation_date) + expiry < now) continue;
      out.push({ id, size: up.size, offset: up.offset });
    }
    return out;
  }

  /**
   * Before an upload starts: the member's library must be ready, the type a video, the size known;
   * the member's open uploads stay within the household's limits, and the disk holds it beside
   * every other open upload and the reserve (507).
   */
  async checkNewUpload(userId: string, declared: { type: string | null; size: number | null }): Promise<void> {
    const { dir } = await this.deps.exports.readySection(userId, 'mine');
    if (!declared.type || !(HOME_VIDEO_TYPES as readonly string[]).includes(declared.type)) {
      throw new UnsupportedMediaError('Only videos can be uploaded here (MP4, MOV, WebM, MKV, AVI or 3GP).');
    }
    const size = declared.size;
    if (size === null || !Number.isSafeInteger(size) || size < 0) {
      throw new BadRequestError('Hearth needs to know how large the video is before it starts. Upload it from the Home videos page.');
    }
    const open = await this.openUploads();
    const mine = open.filter((u) => u.id.startsWith(`${userId}_`));
    const limits = await this.uploadLimits();
    if (mine.length >= limits.maxOpenUploads) {
      // 429 and 413, not 409: a tus client takes a 409 for an offset mismatch and tries again
      throw new AppError(
        429,
        'too_many_open_uploads',
        `You already have ${mine.length === 1 ? 'an upload that is' : `${mine.length} uploads that are`} not finished, the most a member may have at once. Let ${mine.length === 1 ? 'it' : 'them'} finish, or cancel one, then try again (an unfinished upload is cleared after a day).`,
      );
    }
    const declaredMine = mine.reduce((n, u) => n + u.size, 0);
    if (declaredMine + size > limits.maxOpenBytes) {
      throw new AppError(
        413,
        'open_uploads_too_large',
        `Your unfinished uploads would come to ${formatSize(declaredMine + size)}, more than the ${formatSize(limits.maxOpenBytes)} a member may have on the way at once. Let the others finish first, or ask an admin to raise the limit.`,
      );
    }
    // what the other open uploads still have to write is already spoken for
    const pending = open.reduce((n, u) => n + (u.size - u.offset), 0);
    await this.deps.disk.ensureRoom(this.deps.uploadDir, size + pending, { what: pending > 0 ? 'This video, with the uploads not finished yet,' : 'This video' });
    await this.deps.disk.ensureRoom(dir, size, { what: 'This video', where: 'the disk of your home videos' });
  }

  /**
   * A finished upload: its first bytes must be a video (else it is deleted, with a sentence); it
   * moves into the member's folder under a safe unique name and the folder is scanned.
   */
  async complete(userId: string, upload: { file: string; name: string | null }): Promise<HomeVideoRow> {
    const type = sniffVideo(await readHead(upload.file));
    if (!type) {
      await rm(upload.file, { force: true });
      throw new UnsupportedMediaError('That file is not a video Hearth can keep, so it was not saved. Choose a video (MP4, MOV, WebM, MKV, AVI or 3GP).');
    }
    const { section, dir } = await this.deps.exports.readySection(userId, 'mine');
    await mkdir(dir, { recursive: true });
    const id = randomUUID();
    const title = titleOf(upload.name);
    const nameExt = path.extname(upload.name ?? '').toLowerCase();
    const ext = VIDEO_EXTS.has(nameExt) ? nameExt : (EXT_BY_TYPE[type] ?? '.mp4');
    const fileName = safeFileName(title, ext, id.slice(0, 8));
    const target = resolveInside(dir, fileName);
    if (!target) throw new UnsupportedMediaError('Hearth could not store that video.');
    try {
      await rename(upload.file, target);
    } catch {
      // another disk: copy, then drop the upload
      await copyFile(upload.file, target);
      await rm(upload.file, { force: true });
    }
    const row: HomeVideoRow = { id, userId, sectionId: section.id, title, fileName, contentType: type, bytes: (await stat(target)).size, state: 'stored', ratingKey: null, removedReason: null, createdAt: this.now(), removedAt: null };
    await this.deps.store.insertVideo(row);
    await this.rescan(section);
    return row;
  }

  /** Asks the server to scan the member's folder (a failure is logged: the next look or sweep scans again). */
  async rescan(section: SectionRow): Promise<void> {
    const shared = await this.deps.connection.shared().catch(() => null);
    const location = section.locationId ? await this.deps.store.getLocation(section.locationId) : null;
    if (!shared || !section.sectionKey || !location?.serverPath) return;
    try {
      await shared.client.refreshSection(shared.token, section.sectionKey, serverPathOf(location.serverPath, section.folder));
    } catch (err) {
      this.deps.logger.warn({ err, section: section.id }, 'home video rescan failed');
    }
  }

  /** The server's items of a section, by title (home videos' titles are their file names). */
  private async serverItems(section: SectionRow): Promise<PlexItem[] | null> {
    const shared = await this.deps.connection.shared().catch(() => null);
    if (!shared || !section.sectionKey) return null;
    try {
      return (await shared.client.sectionItems(shared.token, section.sectionKey)).items;
    } catch (err) {
      if (mediaServerFailure(err) === null) this.deps.logger.warn({ err }, 'home video items lookup failed');
      return null;
    }
  }

  async list(actor: UserActor): Promise<HomeVideosResponse> {
    const rows = await this.deps.store.videosOf(actor.id);
    const section = await this.deps.store.sectionFor(actor.id, 'mine');
    const items = section && rows.some((r) => r.state !== 'removed') ? await this.serverItems(section) : null;
    const byKey = new Map<string, PlexItem>();
    for (const it of items ?? []) byKey.set(it.ratingKey, it);
    const videos: HomeVideo[] = [];
    for (const r of rows) {
      let row = r;
      // the scan has it now: pick up its ratingKey
      if (row.state === 'stored' && items) {
        const base = path.basename(row.fileName, path.extname(row.fileName));
        const found = items.find((it) => it.title === base || it.title === row.title);
        if (found) {
          await this.deps.store.updateVideo(row.id, { state: 'ready', ratingKey: found.ratingKey });
          row = { ...row, state: 'ready', ratingKey: found.ratingKey };
          byKey.set(found.ratingKey, found);
        }
      }
      const item = row.state === 'ready' && row.ratingKey ? byKey.get(row.ratingKey) : undefined;
      videos.push({
        id: row.id,
        title: row.title,
        bytes: row.bytes,
        contentType: row.contentType,
        state: row.state,
        ratingKey: row.ratingKey,
        removedReason: row.removedReason,
        createdAt: row.createdAt,
        // a frame of the video for a 96×54 slot (twice that for phones), not a poster's 2:3
        item: item ? { ...toMediaItem(item), title: row.title, thumbUrl: imgUrl(item.thumb, HOME_VIDEO_THUMB.w, HOME_VIDEO_THUMB.h) } : null,
      });
    }
    return { videos, usedBytes: await this.deps.store.usedBytes(actor.id), maxBytes: this.maxBytes };
  }

  /** Deletes Hearth's own file of a video (another member's is a 404) and rescans the folder. */
  async remove(actor: UserActor, id: string): Promise<void> {
    const row = await this.deps.store.getVideo(id);
    if (!row || !isOwner(actor, row.userId) || row.state === 'removed') throw new NotFoundError('That video does not exist.');
    await this.removeFile(row, 'You deleted it.');
  }

  /** Removes the file and marks the row removed with the reason, then rescans (the sweep uses it too). */
  async removeFile(row: HomeVideoRow, reason: string): Promise<void> {
    const section = await this.deps.store.getSection(row.sectionId);
    const location = section?.locationId ? await this.deps.store.getLocation(section.locationId) : null;
    const dir = section && location ? resolveInside(location.localPath, section.folder) : null;
    const file = dir ? resolveInside(dir, row.fileName) : null;
    if (file) await rm(file, { force: true });
    await this.deps.store.updateVideo(row.id, { state: 'removed', removedReason: reason, removedAt: this.now() });
    if (section) await this.rescan(section);
  }
}
