// The image engine as the household sees it (GET /api/image/status: its state, lazily started, and
// which pipelines this engine can run, with the reason as a sentence) and as an admin sets it up
// (GET/PUT /api/admin/image-engine: the install folder, its Python and the checkpoint; the log tail).
import { assertAdmin, type Actor } from '../../actor.js';
import type { HardwareProbe } from '../../platform/hardware.js';
import { imageEngineArgv, probeImageEngineLaunch } from '../../platform/image-engine-flags.js';
import type { ImageEngineConfig } from './engine-config.js';
import type { ObjectInfo } from '../../adapters/image-engine/object-info.js';
import type { ImageEngineClient, ImageEngineRuntime, ImageJobRunner } from './parts.js';
import { ENGINE_PORT, type EngineAdminResponse, type ImageStatusResponse, type PipelineAvailability } from './schema.js';
import { missingVideoModel } from './video-models.js';
import { CUSTOM_PACKS, LOCAL_PIPELINES, missingNodesFor, PIPELINES, pipelineNotInstalledError, type Pipeline } from './workflow-graph.js';

export interface ImageEngineParts {
  runtime: ImageEngineRuntime | null;
  client: ImageEngineClient | null;
  runner: ImageJobRunner | null;
}

export interface ImageEngineAdminDeps extends ImageEngineParts {
  config: ImageEngineConfig;
  hardware: HardwareProbe;
  /** The engine's parts the Image engine feature downloaded (archives under DATA_DIR/components) that are on disk. */
  downloaded?: () => Promise<Array<{ label: string; path: string }>>;
}

/** The feature catalog's item that downloads the engine (resources/catalog/features.json, "Image engine"). */
export const IMAGE_ENGINE_FEATURE = 'images-base';

const NOT_SET_UP = 'The image engine is not set up on this computer yet. An admin can choose its folder on the Image engine page.';
const NOT_RUNNING = 'The image engine is starting. This pipeline is checked once it is running.';

export class ImageEngineAdminService {
  constructor(private readonly deps: ImageEngineAdminDeps) {}

  /** The engine's node list when it is running (null otherwise; never starts it). */
  async objectInfo(): Promise<ObjectInfo | null> {
    const { runtime, client } = this.deps;
    if (!runtime || !client || runtime.status().state !== 'ready') return null;
    return client.objectInfo().catch(() => null);
  }

  /** The engine's client, runtime and the household's queue, for a module that runs its own graphs on it (music); null parts when this Hearth has none. */
  engineParts(): ImageEngineParts {
    return { client: this.deps.client, runtime: this.deps.runtime, runner: this.deps.runner };
  }

  /** An engine folder is set up, or IMAGE_ENGINE_URL points at one. */
  async configured(): Promise<boolean> {
    return this.deps.config.configured();
  }

  /** GET /api/image/status: starts the engine if it is set up and idle, never waits for it. */
  async status(): Promise<ImageStatusResponse> {
    const { runtime, runner } = this.deps;
    const configured = await this.deps.config.configured();
    // an engine that is set up starts on the first look; one that is not stays idle with the sentence below
    if (configured) runtime?.ensureStarted();
    const st = runtime?.status() ?? null;
    const info = await this.objectInfo();
    const checkpoint = await this.deps.config.checkpoint();
    return {
      state: configured ? (st?.state ?? 'idle') : 'idle',
      error: configured ? (st?.error ?? null) : NOT_SET_UP,
      configured,
      checkpoint,
      progress: configured ? (st?.progress ?? null) : null,
      pipelines: PIPELINES.map((p) => availability(p, info, configured, checkpoint)),
      queue: runner?.counts() ?? { running: 0, waiting: 0 },
    };
  }

  /** A 422 `<pipeline>_not_installed` when the running engine lacks the pipeline's nodes; null when it can run (or cannot yet tell). */
  async notInstalled(pipeline: Pipeline): Promise<Error | null> {
    const info = await this.objectInfo();
    return info ? pipelineNotInstalledError(pipeline, info) : null;
  }

  async admin(actor: Actor): Promise<EngineAdminResponse> {
    assertAdmin(actor);
    const stored = await this.deps.config.engine();
    const info = await this.objectInfo();
    const ckpt = info?.get('CheckpointLoaderSimple')?.inputs.find((i) => i.name === 'ckpt_name')?.enumValues ?? [];
    const launch = await probeImageEngineLaunch(this.deps.hardware).catch(() => null);
    return {
      config: {
        installDir: stored.installDir,
        python: stored.python,
        externalUrl: this.deps.config.externalUrl,
        checkpoint: await this.deps.config.checkpoint(),
        checkpoints: ckpt.filter((c): c is string => typeof c === 'string'),
      },
      status: await this.status(),
      launch: launch ? { target: launch.target, dtype: launch.dtype, args: imageEngineArgv(launch, { port: ENGINE_PORT }), note: launch.note } : null,
      downloaded: (await this.deps.downloaded?.()) ?? [],
    };
  }

  async update(actor: Actor, body: { installDir?: string | null; python?: string | null; checkpoint?: string | null }): Promise<EngineAdminResponse> {
    assertAdmin(actor);
    const stored = await this.deps.config.engine();
    const next = { installDir: body.installDir === undefined ? stored.installDir : body.installDir, python: body.python === undefined ? stored.python : body.python };
    if (next.installDir !== stored.installDir || next.python !== stored.python) {
      await this.deps.config.setEngine(next);
      // a running engine moves to the new folder; an idle one reads it when next started
      if (this.deps.runtime && this.deps.runtime.status().state !== 'idle') await this.deps.runtime.restart('the engine folder changed');
    }
    if (body.checkpoint !== undefined) await this.deps.config.setCheckpoint(body.checkpoint);
    return this.admin(actor);
  }

  /** POST /api/admin/image-engine/retry: a failed install or start runs again (answers at once; the page follows it). */
  async retry(actor: Actor): Promise<EngineAdminResponse> {
    assertAdmin(actor);
    const { runtime } = this.deps;
    if (runtime && (await this.deps.config.configured())) {
      // set up and under way in the page's next look; its end is a state, never an answer here
      void runtime.restart('an admin asked to try again').catch(() => undefined);
    }
    return this.admin(actor);
  }

  async logs(actor: Actor, lines: number): Promise<string[]> {
    assertAdmin(actor);
    return (await this.deps.runtime?.logTail(lines)) ?? [];
  }
}

function availability(pipeline: Pipeline, info: ObjectInfo | null, configured: boolean, checkpoint: string | null): PipelineAvailability {
  if ((LOCAL_PIPELINES as readonly Pipeline[]).includes(pipeline)) return { pipeline, available: true, reason: null, missing: [] };
  if (!configured) return { pipeline, available: false, reason: NOT_SET_UP, missing: [] };
  if (!info) return { pipeline, available: false, reason: NOT_RUNNING, missing: [] };
  const missing = missingNodesFor(pipeline, info);
  if (!missing) {
    // the clips also need their model files (a motion module, an SVD checkpoint)
    const model = pipeline === 'video' || pipeline === 'i2v' ? missingVideoModel(pipeline, info, checkpoint) : null;
    return model ? { pipeline, available: false, reason: model.reason, missing: model.missing } : { pipeline, available: true, reason: null, missing: [] };
  }
  const err = pipelineNotInstalledError(pipeline, info);
  return {
    pipeline,
    available: false,
    reason: err?.message ?? null,
    missing: missing.packs.length > 0 ? missing.packs.map((p) => `${p} (${CUSTOM_PACKS[p].repo})`) : missing.classes,
  };
}
