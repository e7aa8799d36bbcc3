// Making a picture on the engine (POST /generate) and the engine's edits (POST /edit with an engine
// op): the refusals first (engine not set up 503, queue limits 429, a pipeline whose nodes are
// missing 422 `<pipeline>_not_installed`), then the prompt pipeline (style, safety prefix unless an
// admin made the member uncensored, LoRAs among the member's allowed ones with their trigger words
// and clamped weights, isAdult at enqueue), the row inserted as queued and the job handed to the
// household's queue. A video clip is a picture's prompt and LoRAs animated by an AnimateDiff motion
// module; i2v animates one of the member's own ready pictures with an SVD checkpoint; each model
// file is chosen from the running engine's lists (video-models.ts). The job keeps going when the
// member's page goes away.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { isOwner, type UserActor } from '../../actor.js';
import { BadRequestError, ServiceUnavailableError, TooManyRequestsError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { ImageArtifactsService } from './artifacts-service.js';
import type { PendingUpload, ReceivedPicture } from './edit-service.js';
import type { ImageEditService } from './edit-service.js';
import type { ImageEngineAdminService } from './engine-admin-service.js';
import type { ImageEngineConfig } from './engine-config.js';
import type { ImageFiles } from './files.js';
import type { ImageLorasService } from './loras-service.js';
import type { ObjectInfo } from '../../adapters/image-engine/object-info.js';
import type { EngineJob, ImageEngineRuntime, ImageJobRunner } from './parts.js';
import { buildPrompt, isAdult, resolveLoras } from './prompt.js';
import { AUDIO_CHECKPOINT } from './public.js';
import { samplingFor, sizeFor } from './presets.js';
import { MAX_JOBS_PER_MEMBER, MAX_QUEUED_JOBS, type Artifact, type EditFields, type GenerateBody } from './schema.js';
import type { ImageGenStore } from './store.js';
import { enumOf, missingVideoModel, motionModuleFor, svdCheckpoint, videoModelError } from './video-models.js';
import { buildGraph, EDIT_OPS, pipelineNotInstalledError, type EnginePipeline, type PipelineRequest, type SourceImage } from './workflow-graph.js';

export interface ImageGenerateDeps {
  store: ImageGenStore;
  files: ImageFiles;
  artifacts: ImageArtifactsService;
  loras: ImageLorasService;
  edit: ImageEditService;
  engine: ImageEngineAdminService;
  config: ImageEngineConfig;
  runtime: ImageEngineRuntime | null;
  runner: ImageJobRunner | null;
  client?: unknown;
  clock: Clock;
}

/** A queued job: its row as the start event shows it. */
export interface QueuedJob {
  artifact: Artifact;
}

const NOT_SET_UP = 'Pictures are not set up on this computer yet: the image engine needs an admin to choose its folder on the Image engine page.';
const STARTING_FOR_CLIPS = 'The image engine is still starting, and Hearth needs it running to choose the model for a clip. Try again in a minute.';


const seedOf = (seed: number | undefined) => seed ?? Math.floor(Math.random() * 2 ** 32);

export class ImageGenerateService {
  constructor(private readonly deps: ImageGenerateDeps) {}

  private now(): string {
    return this.deps.clock.now().toISOString();
  }

  /** The engine parts, or 503 with the way to fix it; starts the engine when it is idle. */
  private async parts(): Promise<{ runtime: ImageEngineRuntime; runner: ImageJobRunner }> {
    const { runtime, runner } = this.deps;
    if (!runtime || !(await this.deps.config.configured())) throw new ServiceUnavailableError('image_engine_unavailable', NOT_SET_UP);
    if (!runner) throw new ServiceUnavailableError('image_engine_unavailable', 'Making pictures is not ready in this version of Hearth yet.');
    runtime.ensureStarted();
    return { runtime, runner };
  }

  /** The member's and the household's queue limits (429 with a sentence). */
  private async checkQueue(actor: UserActor, runner: ImageJobRunner): Promise<void> {
    if ((await this.deps.store.countActive(actor.id)) >= MAX_JOBS_PER_MEMBER) {
      throw new TooManyRequestsError('too_many_pictures', `You already have ${MAX_JOBS_PER_MEMBER} pictures being made. Wait for one to finish, then try again.`, 30);
    }
    if (runner.counts().waiting >= MAX_QUEUED_JOBS) {
      throw new TooManyRequestsError('image_queue_full', 'The household\'s picture queue is full right now. Try again in a few minutes.', 60);
    }
  }

  /** The engine's node list when it is running; a pipeline it lacks is 422 `<pipeline>_not_installed`. */
  private async installed(pipeline: EnginePipeline): Promise<ObjectInfo | null> {
    const info = await this.deps.engine.objectInfo();
    const missing = info ? pipelineNotInstalledError(pipeline, info) : null;
    if (missing) throw missing;
    return info;
  }

  private async checkpoint(info: ObjectInfo | null, pipeline: EnginePipeline): Promise<string> {
    const chosen = await this.deps.config.checkpoint();
    // the checkpoints folder also holds video-only models (SVD) and music ones (Stable Audio), which cannot draw a picture
    const offered = enumOf(info, 'CheckpointLoaderSimple', 'ckpt_name').filter((c) => !/(^|[^a-z])svd/i.test(c) && !AUDIO_CHECKPOINT.test(c));
    const ckpt = chosen ?? offered[0] ?? null;
    if (!ckpt) throw new UnprocessableError(`${pipeline}_not_installed`, 'No picture model is installed yet. An admin can add one and choose it on the Image engine page.', { pipeline });
    return ckpt;
  }

  /** The model file an op needs from the engine's list, or 422 saying what an admin adds. */
  private model(info: ObjectInfo | null, pipeline: EnginePipeline, classType: string, input: string, what: string): string {
    const found = enumOf(info, classType, input)[0];
    if (!found) throw new UnprocessableError(`${pipeline}_not_installed`, `This needs ${what}, which is not installed in the image engine yet. An admin can add it.`, { pipeline, missingModels: [classType] });
    return found;
  }

  private async insert(actor: UserActor, id: string, row: { kind: 'generated' | 'edited'; pipeline: EnginePipeline; prompt: string; finalPrompt: string | null; negativePrompt: string | null; style: string | null; isAdult: boolean; params: Record<string, unknown>; loras: { id: string; name: string; weight: number }[]; sourceId: string | null }): Promise<void> {
    await this.deps.store.insertArtifact({
      id,
      userId: actor.id,
      state: 'queued',
      stepCurrent: 0,
      stepTotal: 0,
      error: null,
      outputPath: null,
      contentType: null,
      width: null,
      height: null,
      bytes: null,
      createdAt: this.now(),
      startedAt: null,
      finishedAt: null,
      ...row,
    });
  }

  private async enqueue(runner: ImageJobRunner, job: EngineJob): Promise<QueuedJob> {
    runner.enqueue(job);
    return { artifact: this.deps.artifacts.view((await this.deps.store.artifact(job.id))!) };
  }

  /** POST /generate: refusals, the prompt pipeline, the row, the job queued. */
  async generate(actor: UserActor, body: GenerateBody): Promise<QueuedJob> {
    const { runner } = await this.parts();
    await this.checkQueue(actor, runner);
    const pipeline = body.pipeline;
    const info = await this.installed(pipeline);
    // the clip's model files are chosen from the running engine's lists
    if ((pipeline === 'video' || pipeline === 'i2v') && !info) throw new ServiceUnavailableError('image_engine_starting', STARTING_FOR_CLIPS);
    if (pipeline === 'i2v') return this.animate(actor, body, runner, info!);
    const checkpoint = await this.checkpoint(info, pipeline);
    let motionModule: string | null = null;
    if (pipeline === 'video') {
      const missing = missingVideoModel('video', info!, checkpoint);
      if (missing) throw videoModelError('video', missing.reason, missing.missing);
      motionModule = motionModuleFor(info, checkpoint);
    }
    let face: { path: string; fileName: string } | null = null;
    if (pipeline === 'face_id') {
      if (!body.refId) throw new BadRequestError('Add a photo of the face first (refId from reference-face).');
      const row = await this.deps.store.face(body.refId);
      const file = row && isOwner(actor, row.userId) ? this.deps.files.resolve(row.filePath) : null;
      if (!file) throw new BadRequestError('That face photo is not there any more. Add it again.');
      face = { path: file, fileName: row!.filePath.split('/').pop()! };
    }

    // the prompt pipeline: the member's protections, only their allowed LoRAs whose files exist
    const [protections, { candidates, rows }, access] = await Promise.all([this.deps.loras.protections(actor.id), this.deps.loras.candidates(), this.deps.loras.access(actor)]);
    const resolution = resolveLoras({ prompt: body.prompt, explicitIds: body.loraIds ?? null, weights: body.loraWeights, candidates, access });
    const built = buildPrompt({ message: body.prompt, style: body.style ?? null, uncensored: protections.uncensoredImages, loras: resolution });
    const names = new Map(rows.map((r) => [r.id, r.name]));
    // the spec's clamps (size 256-2048 per side, steps 1-40, guidance 0-20): out of range is clamped, not refused, and the row keeps what is used
    const size = sizeFor({ prompt: body.prompt, width: body.width, height: body.height, orientation: body.orientation ?? null });
    const sampling = samplingFor({ checkpoint, steps: body.steps, guidance: body.guidance, fastMode: body.fast });
    const seed = seedOf(body.seed);
    const upscaleModel = enumOf(info, 'UpscaleModelLoader', 'model_name')[0] ?? null;
    const id = randomUUID();
    const request = {
      positive: built.positive,
      negative: built.negative,
      checkpoint,
      seed,
      width: size.width,
      height: size.height,
      steps: sampling.steps,
      guidance: sampling.cfg,
      fastMode: body.fast,
      loras: resolution.loras.map((l) => ({ file: l.file, weight: l.weight })),
      upscaleModel,
      filenamePrefix: `hearth/${id}`,
    };
    await this.insert(actor, id, {
      kind: 'generated',
      pipeline,
      prompt: body.prompt,
      finalPrompt: built.positive,
      negativePrompt: built.negative,
      style: built.style,
      isAdult: built.isAdult,
      params: { width: size.width, height: size.height, steps: sampling.steps, guidance: sampling.cfg, seed, fast: body.fast, checkpoint, ...(motionModule ? { motionModule, frames: body.frames ?? null } : {}) },
      loras: resolution.loras.map((l) => ({ id: l.id, name: names.get(l.id) ?? l.file, weight: l.weight })),
      sourceId: null,
    });
    return this.enqueue(runner, {
      id,
      userId: actor.id,
      pipeline,
      inputs: face ? { face } : {},
      build: (uploaded) => {
        if (pipeline === 'face_id') return buildGraph({ ...request, pipeline, referenceFace: uploaded.face ?? '' });
        if (motionModule) return buildGraph({ ...request, pipeline: 'video', motionModule, frames: body.frames });
        return buildGraph({ ...request, pipeline: 'txt2img' });
      },
    });
  }

  /** i2v: one of the member's own ready pictures (404 for anyone else's) animated with SVD. */
  private async animate(actor: UserActor, body: GenerateBody, runner: ImageJobRunner, info: ObjectInfo): Promise<QueuedJob> {
    if (!body.sourceId) throw new BadRequestError('Choose one of your pictures to bring to life.');
    const src = await this.deps.artifacts.own(actor, body.sourceId);
    if (src.state !== 'ready' || !src.outputPath) throw new BadRequestError('That picture is not finished yet. Pick it again once it is ready.');
    if (src.pipeline === 'video' || src.pipeline === 'i2v') throw new BadRequestError('That is already a clip. Choose a picture to bring to life.');
    const file = this.deps.files.resolve(src.outputPath);
    if (!file || (await this.deps.files.size(src.outputPath)) === null) throw new BadRequestError('That picture\'s file is missing from this computer. Pick another one.');
    const missing = missingVideoModel('i2v', info, null);
    if (missing) throw videoModelError('i2v', missing.reason, missing.missing);
    const checkpoint = svdCheckpoint(info)!;
    const { default: sharp } = await import('sharp');
    const meta = await sharp(file).metadata().catch(() => null);
    if (!meta?.width || !meta.height) throw new BadRequestError('Hearth cannot read that picture. Choose another one.');
    const dims = { width: meta.width, height: meta.height };
    const seed = seedOf(body.seed);
    const id = randomUUID();
    await this.insert(actor, id, {
      kind: 'generated',
      pipeline: 'i2v',
      prompt: body.prompt,
      finalPrompt: null,
      negativePrompt: null,
      style: null,
      // the clip shows what the picture shows: adult when the picture was, or when the words are
      isAdult: src.isAdult || isAdult(body.prompt, []),
      params: { seed, fast: body.fast, checkpoint, frames: body.frames ?? null },
      loras: [],
      sourceId: src.id,
    });
    return this.enqueue(runner, {
      id,
      userId: actor.id,
      pipeline: 'i2v',
      inputs: { source: { path: file, fileName: `${id}-source.png` } },
      build: (uploaded) => buildGraph({ pipeline: 'i2v', checkpoint, source: { name: uploaded.source ?? '', ...dims }, seed, frames: body.frames, fastMode: body.fast, filenamePrefix: `hearth/${id}` }),
    });
  }

  /** POST /edit with an engine op: the source (upload or own picture), the op's graph, queued. */
  async edit(actor: UserActor, p: PendingUpload, received: ReceivedPicture, fields: EditFields): Promise<QueuedJob> {
    const pipeline = EDIT_OPS[fields.op] as EnginePipeline;
    const { runner } = await this.parts();
    await this.checkQueue(actor, runner);
    const info = await this.installed(pipeline);
    const src = await this.deps.edit.source(actor, p, received, fields.sourceId);
    const { default: sharp } = await import('sharp');
    const meta = await sharp(src.path).metadata().catch(() => null);
    if (!meta?.width || !meta.height) throw new BadRequestError('Hearth cannot read that picture. Choose a JPEG, PNG or WebP picture.');
    const dims = { width: meta.width, height: meta.height };
    const seed = seedOf(undefined);
    const id = p.id;
    const prefix = `hearth/${id}`;
    let make: (source: SourceImage) => PipelineRequest;
    switch (pipeline) {
      case 'bg_remove':
        make = (source) => ({ pipeline, source, filenamePrefix: prefix });
        break;
      case 'bg_blur': {
        const b = fields.blur ?? 50;
        make = (source) => ({ pipeline, source, strength: b <= 33 ? 'light' : b <= 66 ? 'medium' : 'strong', filenamePrefix: prefix });
        break;
      }
      case 'upscale': {
        const upscaleModel = this.model(info, pipeline, 'UpscaleModelLoader', 'model_name', 'an upscale model');
        make = (source) => ({ pipeline, source, upscaleModel, factor: fields.scale === 4 ? 4 : 2, filenamePrefix: prefix });
        break;
      }
      case 'enhance': {
        const checkpoint = await this.checkpoint(info, pipeline);
        const protections = await this.deps.loras.protections(actor.id);
        const built = buildPrompt({ message: fields.prompt || 'a clear, detailed photo', uncensored: protections.uncensoredImages, loras: { loras: [], triggerTokens: [], dropped: [], mode: 'explicit' } });
        make = (source) => ({ pipeline, source, checkpoint, positive: built.positive, negative: built.negative, seed, filenamePrefix: prefix });
        break;
      }
      case 'face_restore': {
        const faceRestoreModel = this.model(info, pipeline, 'FaceRestoreModelLoader', 'model_name', 'a face restore model');
        make = (source) => ({ pipeline, source, faceRestoreModel, filenamePrefix: prefix });
        break;
      }
      case 'photo_restore': {
        const upscaleModel = this.model(info, pipeline, 'UpscaleModelLoader', 'model_name', 'an upscale model');
        const faceRestoreModel = this.model(info, pipeline, 'FaceRestoreModelLoader', 'model_name', 'a face restore model');
        const checkpoint = (await this.deps.config.checkpoint()) ?? enumOf(info, 'CheckpointLoaderSimple', 'ckpt_name')[0] ?? null;
        make = (source) => ({ pipeline, source, upscaleModel, faceRestoreModel, checkpoint, seed, filenamePrefix: prefix });
        break;
      }
      default:
        throw new BadRequestError('That edit is not one Hearth knows.');
    }
    await this.insert(actor, id, {
      kind: 'edited',
      pipeline,
      prompt: fields.prompt ?? '',
      finalPrompt: null,
      negativePrompt: null,
      style: null,
      isAdult: false,
      params: { op: fields.op, scale: fields.scale ?? null, blur: fields.blur ?? null },
      loras: [],
      sourceId: src.sourceId,
    });
    const queued = await this.enqueue(runner, {
      id,
      userId: actor.id,
      pipeline,
      inputs: { source: { path: src.path, fileName: `${id}-source.png` } },
      build: (uploaded) => buildGraph(make({ name: uploaded.source ?? '', ...dims })),
    });
    // an uploaded source is kept only until the job ends (the engine has its own copy by then)
    if (src.uploaded) {
      let ended = false;
      const stop: (() => void) | null = runner.subscribe(id, (e) => {
        if (ended || (e.type !== 'done' && e.type !== 'error')) return;
        ended = true;
        // best effort: a leftover upload is a hidden file in the member's own folder
        void rm(src.path, { force: true }).catch(() => undefined);
      });
      if (!stop) await rm(src.path, { force: true });
      else if (ended) stop();
    }
    return queued;
  }
}
