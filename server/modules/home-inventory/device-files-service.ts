// A device's photos and files: uploads (the route streams the body to a temp file this service
// names inside the device's folder; the type is decided here from the first bytes), the main photo,
// downloads with a safe name, comments, deletion, and the cached manual. Every path goes through
// InventoryFiles (the one path guard); a failed upload leaves no row and no file.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { UserActor } from '../../actor.js';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { sniff, UnsupportedMediaError, type InventoryFiles } from './files.js';
import type { ManualExtraction } from './parts.js';
import { MAX_FILES_PER_DEVICE, type DeviceFile, type FileType } from './schema.js';
import type { HomeDevicesService } from './service.js';
import type { FileRecord, HomeInventoryStore } from './store.js';
import { fileView } from './views.js';

export interface HomeDeviceFilesDeps {
  store: HomeInventoryStore;
  files: InventoryFiles;
  devices: Pick<HomeDevicesService, 'record'>;
  manuals: ManualExtraction;
  clock: Clock;
  logger: Logger;
}

/** An upload under way: where the route writes the body. */
export interface PendingUpload {
  deviceId: string;
  fileId: string;
  /** Absolute, inside the device's folder (from the path guard). */
  tempPath: string;
  tempRelative: string;
}

/** What the route received. */
export interface ReceivedUpload {
  bytes: number;
  /** The first bytes of the file, for sniff(). */
  head: Buffer;
  /** The name the browser sent, if any. */
  filename: string | null;
  fields: { label?: string; comment?: string; role?: 'main' | 'photo' | 'file' };
}

/** A file to send: the stream and the headers it needs. */
export interface OpenedFile {
  stream: NodeJS.ReadableStream & { destroy(): void };
  size: number;
  contentType: string;
  disposition: 'inline' | 'attachment';
  filename: string;
}

const HEIC_MESSAGE = 'Hearth cannot read HEIC photos. On an iPhone, set Settings › Camera › Formats to Most Compatible, or send the photo as a JPEG.';
const fileNotFound = () => new NotFoundError('That file is not on this device any more.');

/** A file name safe for Content-Disposition: letters, digits, spaces, dots, dashes; with the type's extension. */
export function safeFilename(label: string, ext: string): string {
  const base = label
    .normalize('NFKD')
    .replace(/[^\w .-]+/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\.{2,}/g, '.')
    .replace(/^[ .-]+|[ .-]+$/g, '')
    .slice(0, 80);
  const name = base || 'file';
  return name.toLowerCase().endsWith(`.${ext}`) ? name : `${name}.${ext}`;
}

/** The extension a download is named with: the type's own, or for other files the one in its label. */
const extOf = (contentType: string, fileType: FileType, label: string): string => {
  if (fileType === 'pdf') return 'pdf';
  if (contentType === 'image/jpeg') return 'jpg';
  if (contentType.startsWith('image/')) return contentType.slice(6);
  return /^\.[A-Za-z0-9]{1,8}$/.test(path.extname(label)) ? path.extname(label).slice(1) : 'bin';
};

export class HomeDeviceFilesService {
  constructor(private readonly deps: HomeDeviceFilesDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  async list(_actor: UserActor, deviceId: string): Promise<DeviceFile[]> {
    await this.deps.devices.record(deviceId);
    return (await this.deps.store.listFiles(deviceId)).map(fileView);
  }

  /** Checks the device and its file count, and names the temp file the body is written to. */
  async prepareUpload(_actor: UserActor, deviceId: string): Promise<PendingUpload> {
    await this.deps.devices.record(deviceId);
    if ((await this.deps.store.countFiles(deviceId)) >= MAX_FILES_PER_DEVICE) {
      throw new ConflictError('too_many_files', `A device keeps at most ${MAX_FILES_PER_DEVICE} photos and files. Delete one it no longer needs first.`);
    }
    await this.deps.files.ensureDeviceDir(deviceId);
    const fileId = randomUUID();
    const tempRelative = this.deps.files.relativeFor(deviceId, `${fileId}.upload`);
    const tempPath = this.deps.files.resolve(tempRelative);
    if (!tempPath) throw new BadRequestError('That device cannot keep files.');
    return { deviceId, fileId, tempPath, tempRelative };
  }

  /** Removes what a failed upload left. */
  async abandonUpload(pending: PendingUpload): Promise<void> {
    await this.deps.files.remove(pending.tempRelative);
    await this.deps.files.removeDeviceDirIfEmpty(pending.deviceId);
  }

  /** Stores the received body by what its first bytes say it is, and adds the row. */
  async finishUpload(actor: UserActor, pending: PendingUpload, received: ReceivedUpload): Promise<DeviceFile> {
    const { deviceId, fileId } = pending;
    const written: string[] = [];
    try {
      if (received.bytes === 0) throw new BadRequestError('The file is empty. Choose the file again.');
      const device = await this.deps.devices.record(deviceId);
      const kind = sniff(received.head);
      if (kind.kind === 'heic') throw new UnsupportedMediaError(HEIC_MESSAGE);
      if (received.fields.role === 'main' && kind.kind !== 'image') throw new BadRequestError('Only a photo can be the main picture of a device.');
      let record: FileRecord;
      const base = { id: fileId, deviceId, source: 'user' as const, comment: received.fields.comment?.trim() || null, createdBy: actor.id, createdAt: this.now() };
      const label = received.fields.label?.trim() || received.filename?.trim() || (kind.kind === 'image' ? 'Photo' : kind.kind === 'pdf' ? 'Document' : 'File');
      if (kind.kind === 'image') {
        const stored = await this.deps.files.storeImage(deviceId, fileId, { path: pending.tempPath });
        written.push(stored.filePath, stored.thumbPath);
        await this.deps.files.remove(pending.tempRelative);
        record = { ...base, label, filePath: stored.filePath, thumbPath: stored.thumbPath, fileType: 'image', contentType: stored.contentType, bytes: stored.bytes };
      } else {
        const ext = kind.kind === 'pdf' ? 'pdf' : 'bin';
        const filePath = this.deps.files.relativeFor(deviceId, `${fileId}.${ext}`);
        await this.deps.files.move(pending.tempRelative, filePath);
        written.push(filePath);
        record = { ...base, label, filePath, thumbPath: null, fileType: kind.kind === 'pdf' ? 'pdf' : 'other', contentType: kind.contentType, bytes: received.bytes };
      }
      await this.deps.store.insertFile(record);
      const main = record.fileType === 'image' && (received.fields.role === 'main' || !device.mainPhotoId);
      await this.deps.store.updateDevice(deviceId, { updatedAt: this.now(), ...(main ? { mainPhotoId: fileId, photoPath: record.filePath } : {}) });
      if (record.fileType === 'pdf' && !device.manualText) this.deps.manuals.fromUploadedFile(deviceId, fileId);
      return fileView(record);
    } catch (err) {
      for (const p of written) await this.deps.files.remove(p);
      await this.abandonUpload(pending);
      throw err;
    }
  }

  async setMainPhoto(_actor: UserActor, deviceId: string, fileId: string): Promise<void> {
    await this.deps.devices.record(deviceId);
    const file = await this.deps.store.getFile(deviceId, fileId);
    if (!file) throw fileNotFound();
    if (file.fileType !== 'image') throw new BadRequestError('Only a photo can be the main picture of a device.');
    await this.deps.store.updateDevice(deviceId, { mainPhotoId: file.id, photoPath: file.filePath, updatedAt: this.now() });
  }

  async setComment(_actor: UserActor, deviceId: string, fileId: string, comment: string | null): Promise<DeviceFile> {
    await this.deps.devices.record(deviceId);
    if (!(await this.deps.store.updateFileComment(deviceId, fileId, comment))) throw fileNotFound();
    return fileView((await this.deps.store.getFile(deviceId, fileId))!);
  }

  async delete(_actor: UserActor, deviceId: string, fileId: string): Promise<void> {
    const device = await this.deps.devices.record(deviceId);
    const file = await this.deps.store.getFile(deviceId, fileId);
    if (!file) throw fileNotFound();
    await this.deps.store.deleteFile(deviceId, fileId);
    const patch: Parameters<HomeInventoryStore['updateDevice']>[1] = { updatedAt: this.now() };
    if (device.mainPhotoId === fileId) {
      // the next photo, if any, becomes the main one
      const next = (await this.deps.store.listFiles(deviceId)).find((f) => f.fileType === 'image');
      patch.mainPhotoId = next?.id ?? null;
      patch.photoPath = next?.filePath ?? null;
    }
    if (device.manualPath === file.filePath) patch.manualPath = null;
    await this.deps.store.updateDevice(deviceId, patch);
    await this.deps.files.remove(file.filePath);
    await this.deps.files.remove(file.thumbPath);
  }

  async open(_actor: UserActor, deviceId: string, fileId: string, thumb: boolean): Promise<OpenedFile> {
    await this.deps.devices.record(deviceId);
    const file = await this.deps.store.getFile(deviceId, fileId);
    if (!file) throw fileNotFound();
    return this.openRecord(file, thumb);
  }

  /** The main photo (or its thumbnail). */
  async photo(_actor: UserActor, deviceId: string, thumb: boolean): Promise<OpenedFile> {
    const device = await this.deps.devices.record(deviceId);
    const file = device.mainPhotoId ? await this.deps.store.getFile(deviceId, device.mainPhotoId) : null;
    if (!file) throw new NotFoundError('This device has no photo yet.');
    return this.openRecord(file, thumb);
  }

  /** The cached manual PDF. */
  async manual(_actor: UserActor, deviceId: string): Promise<OpenedFile> {
    const device = await this.deps.devices.record(deviceId);
    const opened = device.manualPath ? await this.deps.files.open(device.manualPath) : null;
    if (!opened) throw new NotFoundError('Hearth has no manual for this device yet. Upload the PDF, or look it up on the web.');
    return { ...opened, contentType: 'application/pdf', disposition: 'inline', filename: safeFilename(`${device.name} manual`, 'pdf') };
  }

  private async openRecord(file: FileRecord, thumb: boolean): Promise<OpenedFile> {
    if (thumb && !file.thumbPath) throw new NotFoundError('That file has no small preview.');
    const opened = await this.deps.files.open(thumb ? file.thumbPath! : file.filePath);
    if (!opened) {
      this.deps.logger.warn({ deviceId: file.deviceId, fileId: file.id }, 'an inventory file is missing or outside its folder');
      throw new NotFoundError('That file is missing from this Hearth. Upload it again.');
    }
    if (thumb) return { ...opened, contentType: 'image/webp', disposition: 'inline', filename: safeFilename(`${file.label} preview`, 'webp') };
    const inline = file.fileType === 'image' || file.fileType === 'pdf';
    return {
      ...opened,
      contentType: file.fileType === 'other' ? 'application/octet-stream' : file.contentType,
      disposition: inline ? 'inline' : 'attachment',
      filename: safeFilename(file.label, extOf(file.contentType, file.fileType, file.label)),
    };
  }
}
