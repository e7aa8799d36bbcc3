// Making a picture on the engine (POST /generate) and the engine's edits (POST /edit with an engine
// op): the refusals first (engine not set up 503, queue limits 429, a pipeline whose nodes are
// missing 422 `<pipeline>_not_installed`), then the prompt pipeline (style, safety prefix unless an
// admin made the member uncensored, LoRAs among the member's allowed ones with their trigger words
// and clamped weights, isAdult at enqueue), the row inserted as queued and the job handed to the
// household's queue. The job keeps going when the member's page goes away.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { UserActor } from '../../actor.js';
import { BadRequestError, ServiceUnavailableError, TooManyRequestsError, UnprocessableError } from '../../errors.js';
import type { Clock } from '../../platform/clock.js';
import type { ImageArtifactsService } from './artifacts.js';
import type { PendingUpload, ReceivedPicture } from './edit.js';
import type { ImageEditService } from './edit.js';
import type { ImageEngineAdminService } from './engine-admin.js';
import type { ImageEngineConfig } from './engine-config.js';
import type { ImageFiles } from './files.js';
import type { ImageLorasService } from './loras.js';
import type { ObjectInfo } from './object-info.js';
import type { EngineJob, ImageEngineRuntime, ImageJobRunner } from './ports.js';
import { buildPrompt, resolveLoras } from './prompt.js';
import { sizeFor } from './presets.js';
import { MAX_JOBS_PER_MEMBER, MAX_QUEUED_JOBS, type Artifact, type EditFields, type GenerateBody } from './schema.js';
import type { ImageGenStore } from './store.js';
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

/** The values of an engine node's enum input (installed model files), or []. */
function enumOf(info: ObjectInfo | null, classType: string, input: string): string[] {
  const values = info?.get(classType)?.inputs.find((i) => i.name === input)?.enumValues ?? [];
  return values.filter((v): v is string => typeof v === 'string');
}

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
    const offered = enumOf(info, 'CheckpointLoaderSimple', 'ckpt_name');
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
    if (pipeline === 'video' || pipeline === 'i2v') {
      throw new UnprocessableError(`${pipeline}_not_installed`, 'Making videos is not set up in Hearth yet. Make a picture instead.', { pipeline });
    }
    const checkpoint = await this.checkpoint(info, pipeline);
    let face: { path: string; fileName: string } | null = null;
    if (pipeline === 'face_id') {
      if (!body.refId) throw new BadRequestError('Add a photo of the face first (refId from reference-face).');
      const row = await this.deps.store.face(body.refId);
      const file = row && row.userId === actor.id ? this.deps.files.resolve(row.filePath) : null;
      if (!file) throw new BadRequestError('That face photo is not there any more. Add it again.');
      face = { path: file, fileName: row!.filePath.split('/').pop()! };
    }

    // the prompt pipeline: the member's protections, only their allowed LoRAs whose files exist
    const [protections, { candidates, rows }, access] = await Promise.all([this.deps.loras.protections(actor.id), this.deps.loras.candidates(), this.deps.loras.access(actor)]);
    const resolution = resolveLoras({ prompt: body.prompt, explicitIds: body.loraIds ?? null, weights: body.loraWeights, candidates, access });
    const built = buildPrompt({ message: body.prompt, style: body.style ?? null, uncensored: protections.uncensoredImages, loras: resolution });
    const names = new Map(rows.map((r) => [r.id, r.name]));
    const size = sizeFor({ prompt: body.prompt, width: body.width, height: body.height, orientation: body.orientation ?? null });
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
      steps: body.steps ?? null,
      guidance: body.guidance ?? null,
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
      params: { width: size.width, height: size.height, steps: body.steps ?? null, guidance: body.guidance ?? null, seed, fast: body.fast, checkpoint },
      loras: resolution.loras.map((l) => ({ id: l.id, name: names.get(l.id) ?? l.file, weight: l.weight })),
      sourceId: null,
    });
    return this.enqueue(runner, {
      id,
      userId: actor.id,
      pipeline,
      inputs: face ? { face } : {},
      build: (uploaded) => buildGraph(pipeline === 'face_id' ? { ...request, pipeline, referenceFace: uploaded.face ?? '' } : { ...request, pipeline }),
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
