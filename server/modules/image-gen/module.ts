// The image generation module: each member's pictures and clips, the household's LoRAs and their
// model hub, the engine's setup, the one engine queue and the local edits.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createComfyUiClient } from '../../adapters/image-engine/comfyui.js';
import { withImageEngineAppErrors } from '../../adapter-errors/image-engine.js';
import { createModelHubClient } from '../../adapters/model-hub/civitai.js';
import { probeImageEngineLaunch } from '../../platform/image-engine-flags.js';
import { imageEngineDefinition, RotatingLineLog, type ImageEngineSidecarConfig } from '../../platform/sidecars/image-engine.js';
import { PythonEnvironment } from '../../platform/sidecars/python-env.js';
import { ProcessSupervisor } from '../../platform/sidecars/supervisor.js';
import { ParseWorker } from '../../platform/workers/parse-worker.js';
import { defineModule, type Platform } from '../module.js';
import { createImageEngineAdminRoutes, createImageLoraAdminRoutes } from './admin-routes.js';
import { ImageArtifactsService } from './artifacts-service.js';
import { bootSteps } from './boot-steps.js';
import { createImageGenTool } from './chat-tool.js';
import { EDIT_TASKS_MODULE, LocalEditTasks } from './edit-tasks.js';
import { ImageEditService } from './edit-service.js';
import { IMAGE_ENGINE_FEATURE, ImageEngineAdminService, type ImageEngineParts } from './engine-admin-service.js';
import { ImageEngineConfig } from './engine-config.js';
import { imageToolChecks, imageTools } from './extensions.js';
import { ImageFiles } from './files.js';
import { ImageGenerateService } from './generate-service.js';
import { createImageHubRoutes } from './hub-routes.js';
import { ModelHubService } from './hub-service.js';
import { ImageLorasService } from './loras-service.js';
import { ImageLorasStore } from './loras-store.js';
import type { ImageJobRows } from './parts.js';
import type { ImageGenPorts } from './ports.js';
import { ImagePromptHelpService } from './prompt-help-service.js';
import { createImageRoutes, type ImageServices } from './routes.js';
import { EngineJobRunner } from './runner.js';
import { ENGINE_MIN_PYTHON, EngineRuntime } from './runtime.js';
import { ENGINE_PORT, ENGINE_READY_DEADLINE_MS } from './schema.js';
import { ImageGenStore } from './store.js';

export function createImageGenModule(p: Platform, ports: ImageGenPorts) {
  const { config, tuning, clock, settings } = p;
  const now = () => clock.now();
  const store = new ImageGenStore(p.db);
  const engineConfig = new ImageEngineConfig({ settings, dataDir: config.dataDir, externalUrl: config.imageEngineUrl ?? null });
  const files = new ImageFiles(config.dataDir, () => engineConfig.lorasDir());
  // the engine: IMAGE_ENGINE_URL as it is, or the household's ComfyUI run by the one supervisor on 127.0.0.1
  const client = withImageEngineAppErrors(createComfyUiClient({ baseUrl: config.imageEngineUrl ?? `http://127.0.0.1:${ENGINE_PORT}` }));
  const engineLog = new RotatingLineLog(path.join(config.dataDir, 'logs', 'image-engine.log'));
  const supervisor = new ProcessSupervisor<ImageEngineSidecarConfig>(
    imageEngineDefinition({
      port: ENGINE_PORT,
      readinessTimeoutMs: ENGINE_READY_DEADLINE_MS,
      probe: async (signal) => (await client.systemStats(signal), true),
      pidFile: path.join(config.dataDir, 'run', 'image-engine.pid'),
    }),
    engineLog.asLogger(),
  );
  // the engine's own Python environment, made by Hearth from the install's requirement files before it starts
  const environment = new PythonEnvironment({ venvDir: path.join(config.dataDir, 'image-engine', 'venv'), minVersion: ENGINE_MIN_PYTHON, log: (line) => engineLog.write(line) });
  const runtime = new EngineRuntime({ client, external: config.imageEngineUrl !== undefined, settings, supervisor, launch: () => probeImageEngineLaunch(p.hardware), log: engineLog, now, environment });
  // the household's one engine queue; it writes each job's row through rows (late-bound: the
  // artifact view asks the queue for a waiting job's position)
  const rows: ImageJobRows = {
    update: (id, patch) => store.updateArtifact(id, patch),
    artifact: async (id) => {
      const row = await store.artifact(id);
      return row ? artifacts.view(row) : null;
    },
  };
  const runner = ports.engine
    ? null
    : new EngineJobRunner({ client, runtime, rows, imagesDir: files.root, logger: p.logger.child('image-runner'), now, stallMs: tuning.imageStallMs, stallVideoMs: tuning.imageStallVideoMs, queuePollMs: tuning.imageQueuePollMs });
  const engine: ImageEngineParts = ports.engine ?? { runtime, client, runner };
  const logger = p.logger.child('image-gen');
  const artifacts = new ImageArtifactsService({ store, files, clock, runner: engine.runner, adultStateOn: (actor) => ports.content.adultStateOn(actor) });
  // auto colour and adjust: sharp in a worker thread, one picture at a time
  const editTasks = new LocalEditTasks(new ParseWorker({ handlers: EDIT_TASKS_MODULE, taskTimeoutMs: 120_000, maxOldGenerationSizeMb: 1024, logger }));
  const loras = new ImageLorasService({ store: new ImageLorasStore(p.db), files, engine: engineConfig, clock, users: ports.users, content: ports.content, disk: p.diskSpace });
  // what the Image engine feature downloads (ComfyUI's and a node pack's source archives): kept, not unpacked
  const engineDownloads = async () =>
    (ports.catalog.item(IMAGE_ENGINE_FEATURE)?.installs ?? [])
      .map((i) => ports.catalog.artifact(i.id))
      .filter((a): a is NonNullable<typeof a> & { destination: string } => a?.destination !== undefined)
      .map((a) => ({ label: a.label, path: ports.downloads.destinationPath(a.destination) }))
      .filter((d) => existsSync(d.path));
  const engineAdmin = new ImageEngineAdminService({ ...engine, config: engineConfig, hardware: p.hardware, downloaded: engineDownloads });
  const edit = new ImageEditService({ store, files, artifacts, tasks: editTasks, clock, logger });
  const image: ImageServices = {
    artifacts,
    loras,
    engine: engineAdmin,
    edit,
    generate: new ImageGenerateService({ store, files, artifacts, loras, edit, engine: engineAdmin, config: engineConfig, ...engine, clock }),
    help: new ImagePromptHelpService({ models: ports.models, runtime: p.modelRuntime, loras, artifacts, runner: engine.runner, timeoutMs: tuning.inventoryModelMs }),
  };
  // the external model hub: the household's key stays in app settings; files go through the queue
  const imageHub = new ModelHubService({
    client: createModelHubClient({ baseUrl: config.modelHubUrl, guard: p.guard }),
    settings,
    registry: ports.loraRegistry ?? { register: (input) => loras.registerFromHub(input), findByExternalId: (id) => loras.findByExternalId(id) },
    downloads: {
      enqueue: async (actor, job) => (await ports.downloads.enqueue(actor, [job]))[0]!,
      progress: (id) => ports.downloads.progress(id),
      destinationPath: (d) => ports.downloads.destinationPath(d),
    },
    // the engine reads this folder too (its extra_model_paths); the engine runtime may name its own
    lorasDir: () => engineConfig.lorasDir(),
    logger: p.logger.child('image-hub'),
  });

  return defineModule({
    name: 'image-gen',
    storageAreas: [
      { key: 'pictures', label: 'Generated pictures', folders: ['images'] },
      { key: 'models', label: 'AI models', folders: ['image-engine'] },
    ],
    routes: [
      { prefix: '/admin/image-loras', routes: createImageHubRoutes(imageHub, p.sse) },
      { prefix: '/image', routes: createImageRoutes(image, p.sse) },
      { prefix: '/admin/image-loras', routes: createImageLoraAdminRoutes(loras, { maxLoraBytes: tuning.imageLoraMaxBytes }) },
      { prefix: '/admin/image-engine', routes: createImageEngineAdminRoutes(engineAdmin) },
    ],
    services: { image, imageHub },
    // a test's stand-in engine parts have no environment to prepare
    bootSteps: bootSteps({ prepareIfOutdated: ports.engine ? () => Promise.resolve('current' as const) : () => runtime.prepareIfOutdated() }),
    chatTools: [createImageGenTool({ generate: image.generate })],
    extensions: { definitions: imageTools, checks: imageToolChecks({ chatReadiness: ports.chatReadiness, engineConfigured: () => engineAdmin.configured() }) },
    listeners: [
      // a LoRA imported from the model hub is registered once the queue has its whole file
      { event: 'download.completed', run: (e) => imageHub.onDownloaded(e) },
      // a deleted member's pictures went with their row; their folder of files goes here
      { event: 'user.deleted', run: (e) => artifacts.onUserDeleted(e.userId) },
    ],
    // pictures a stopped Hearth left half-made cannot finish (the engine queue lives in memory)
    start: async () => {
      await artifacts.failLeftovers();
    },
    close: async () => {
      await engine.runner?.stop();
      await (engine.runtime ?? runtime).stop();
      await editTasks.close();
    },
  });
}
