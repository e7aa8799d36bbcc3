// Editing a picture (POST /api/image/edit) and keeping a reference face (POST /reference-face).
// An edit starts from an uploaded picture or one of the member's own ready pictures. Auto colour and
// adjust run here, in a worker thread with sharp (never the engine); the result is stored as the
// member's `edited` picture. The engine's edits go through the household queue (ImageGenerateService).
import { randomUUID } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { AppError, BadRequestError, ServiceUnavailableError, UnprocessableError, UnsupportedMediaError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import type { UserActor } from '../../actor.js';
import type { ImageArtifactsService } from './artifacts-service.js';
import type { LocalAdjustments, LocalEditTasks } from './edit-tasks.js';
import type { ImageFiles } from './files.js';
import type { Artifact, EditFields, EditOp } from './schema.js';
import type { ImageGenStore } from './store.js';
import { EDIT_OPS } from './workflow-graph.js';

export interface ImageEditDeps {
  store: ImageGenStore;
  files: ImageFiles;
  artifacts: ImageArtifactsService;
  tasks: LocalEditTasks;
  clock: Clock;
  logger: Logger;
}

/** An upload on its way into the member's folder (the edit's source or a reference face). */
export interface PendingUpload {
  id: string;
  userId: string;
  /** Relative to DATA_DIR/images. */
  tempRel: string;
  tempPath: string;
}

export interface ReceivedPicture {
  bytes: number;
  head: Buffer;
}

/** A started local edit: its row (building), and the work that finishes it. */
export interface LocalEditJob {
  artifact: Artifact;
  run(): Promise<Artifact>;
}

const LABEL: Readonly<Record<EditOp, string>> = {
  'remove-bg': 'Remove the background',
  'bg-blur': 'Blur the background',
  upscale: 'Make it bigger',
  enhance: 'Enhance',
  'auto-color': 'Fix the colours',
  adjust: 'Adjust',
  'face-restore': 'Restore faces',
  'photo-restore': 'Restore an old photo',
};

export const isLocalOp = (op: EditOp): op is 'auto-color' | 'adjust' => op === 'auto-color' || op === 'adjust';

/** What the first bytes say a picture is (never its name or the browser's type). */
export function pictureType(head: Buffer): { contentType: string; ext: string } | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return { contentType: 'image/png', ext: 'png' };
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { contentType: 'image/jpeg', ext: 'jpg' };
  const latin = head.subarray(0, 16).toString('latin1');
  if (latin.startsWith('RIFF') && latin.slice(8, 12) === 'WEBP') return { contentType: 'image/webp', ext: 'webp' };
  if (latin.startsWith('GIF87a') || latin.startsWith('GIF89a')) return { contentType: 'image/gif', ext: 'gif' };
  return null;
}

const notAFace = () => new UnsupportedMediaError('That file is not a picture. Choose a photo of the face: a JPEG, PNG or WebP picture.');
const unreadableFace = () =>
  new UnprocessableError('unreadable_picture', 'That picture could not be read: the file is damaged or is not a whole picture. Choose another photo of the face.');
const notAPicture = () => new UnsupportedMediaError('That file is not a picture Hearth can edit. Choose a JPEG, PNG or WebP picture.');

export class ImageEditService {
  constructor(private readonly deps: ImageEditDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** Where an upload is written while it arrives (in the member's own folder). */
  async prepareUpload(actor: UserActor): Promise<PendingUpload> {
    const dir = await this.deps.files.userDir(actor.id);
    const id = randomUUID();
    const tempRel = this.deps.files.relativeFor(actor.id, `.upload-${id}`);
    return { id, userId: actor.id, tempRel, tempPath: `${dir}/.upload-${id}` };
  }

  async abandonUpload(p: PendingUpload): Promise<void> {
    await rm(p.tempPath, { force: true });
  }

  /** The uploaded picture becomes a reference face for face_id, the member's own. */
  async finishReferenceFace(actor: UserActor, p: PendingUpload, received: ReceivedPicture): Promise<{ refId: string }> {
    try {
      if (received.bytes === 0) throw new BadRequestError('The form has no picture in it. Choose a photo of the face.');
      const type = pictureType(received.head);
      if (!type) throw notAFace();
      // the first bytes only say what it claims to be: the whole picture is decoded before it is kept
      if (!(await this.deps.tasks.checkPicture(p.tempPath))) throw unreadableFace();
      const rel = this.deps.files.relativeFor(actor.id, `face-${p.id}.${type.ext}`);
      const target = this.deps.files.resolve(rel);
      if (!target) throw new BadRequestError('That picture cannot be stored.');
      await rename(p.tempPath, target);
      await this.deps.store.insertFace({ id: p.id, userId: actor.id, filePath: rel, createdAt: this.now() });
      return { refId: p.id };
    } catch (err) {
      await this.abandonUpload(p);
      throw err;
    }
  }

  /**
   * The edit's source: the uploaded picture, or one of the member's own ready pictures (404 for
   * anyone else's). Its absolute path, and whether it is the upload (removed after the edit).
   */
  async source(actor: UserActor, p: PendingUpload, received: ReceivedPicture, sourceId: string | undefined): Promise<{ path: string; uploaded: boolean; sourceId: string | null }> {
    if (received.bytes > 0) {
      if (!pictureType(received.head)) throw notAPicture();
      return { path: p.tempPath, uploaded: true, sourceId: null };
    }
    if (!sourceId) throw new BadRequestError('Choose a picture to edit: upload one, or pick one from your pictures.');
    const row = await this.deps.artifacts.own(actor, sourceId);
    if (row.state !== 'ready' || !row.outputPath) throw new BadRequestError('That picture is not finished yet. Pick it again once it is ready.');
    const file = this.deps.files.resolve(row.outputPath);
    if (!file || (await this.deps.files.size(row.outputPath)) === null) throw new BadRequestError('That picture\'s file is missing from this computer. Pick another one.');
    return { path: file, uploaded: false, sourceId: row.id };
  }

  /** Starts auto colour or adjust: the row is inserted as building; run() makes the picture. */
  async beginLocal(actor: UserActor, p: PendingUpload, received: ReceivedPicture, fields: EditFields): Promise<LocalEditJob> {
    if (!isLocalOp(fields.op)) throw new ServiceUnavailableError('image_engine_unavailable', 'That edit needs the image engine, which is not set up on this computer yet.');
    const src = await this.source(actor, p, received, fields.sourceId);
    const pipeline = EDIT_OPS[fields.op];
    const adjust: LocalAdjustments = {
      brightness: (fields.brightness ?? 0) / 100,
      contrast: (fields.contrast ?? 0) / 100,
      saturation: (fields.saturation ?? 0) / 100,
      warmth: (fields.warmth ?? 0) / 100,
      sharpness: (fields.sharpness ?? 0) / 100,
      rotate: (fields.rotate ?? 0) as LocalAdjustments['rotate'],
    };
    const id = p.id;
    const outRel = this.deps.files.relativeFor(actor.id, `${id}.png`);
    const outPath = this.deps.files.resolve(outRel);
    if (!outPath) throw new BadRequestError('That picture cannot be stored.');
    const at = this.now();
    await this.deps.store.insertArtifact({
      id,
      userId: actor.id,
      kind: 'edited',
      pipeline,
      state: 'building',
      stepCurrent: 0,
      stepTotal: 1,
      isAdult: false,
      prompt: LABEL[fields.op],
      finalPrompt: null,
      negativePrompt: null,
      style: null,
      params: fields.op === 'adjust' ? { ...adjust } : {},
      loras: [],
      sourceId: src.sourceId,
      error: null,
      outputPath: null,
      contentType: null,
      width: null,
      height: null,
      bytes: null,
      createdAt: at,
      startedAt: at,
      finishedAt: null,
    });
    const artifact = this.deps.artifacts.view((await this.deps.store.artifact(id))!);
    const run = async (): Promise<Artifact> => {
      try {
        const out = await this.deps.tasks.run(pipeline, src.path, outPath, fields.op === 'adjust' ? adjust : undefined);
        // a cancel while the worker ran wins: the picture is not kept
        const kept = await this.deps.store.updateArtifactIf(id, ['building'], {
          state: 'ready',
          stepCurrent: 1,
          outputPath: outRel,
          contentType: 'image/png',
          width: out.width,
          height: out.height,
          bytes: out.bytes,
          finishedAt: this.now(),
        });
        if (!kept) await rm(outPath, { force: true });
        return this.deps.artifacts.view((await this.deps.store.artifact(id))!);
      } catch (err) {
        await rm(outPath, { force: true });
        const message = err instanceof AppError ? err.message : 'Hearth could not edit that picture.';
        if (!(err instanceof AppError)) this.deps.logger.warn({ err: (err as Error).message, op: fields.op }, 'local edit failed');
        await this.deps.store.updateArtifactIf(id, ['building'], { state: 'failed', error: message, finishedAt: this.now() });
        throw err;
      } finally {
        if (src.uploaded) await rm(src.path, { force: true });
      }
    };
    return { artifact, run };
  }
}
