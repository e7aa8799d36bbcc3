// The composition root: the only place long-lived objects are built. createServer() calls it
// after the database is open and migrated; tests swap pieces through `overrides`.
import { SYSTEM_ACTOR } from './actor.js';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createOllamaClient, type ModelRuntimeClient } from './adapters/model-runtime/ollama.js';
import type { Config } from './config.js';
import { AppSettingsStore, UserPreferencesStore } from './db/kv.js';
import { tableWrites } from './db/connection.js';
import { createRequestLimit, type RequestLimit } from './http/rate-limit.js';
import { ReplayChannel, SseRegistry } from './http/sse.js';
import { AuthService } from './modules/auth/service.js';
import { AuthStore } from './modules/auth/store.js';
import { PinThrottle, type PinThrottleRules } from './modules/auth/throttle.js';
import { createKiwixClient } from './adapters/archive-server/kiwix.js';
import { captureBrowserFiles } from './adapters/browser/profiles.js';
import { loadArchiveCatalog } from './modules/archives/catalog.js';
import { ArchiveContentService } from './modules/archives/content.js';
import { ArchiveDownloadsService } from './modules/archives/downloads.js';
import { ArchiveEntryCache } from './modules/archives/entry-cache.js';
import { ArchiveRuntimeService } from './modules/archives/runtime-install.js';
import { ArchivesService } from './modules/archives/service.js';
import { ArchivesStore } from './modules/archives/store.js';
import { bootSteps as archiveBootSteps } from './modules/archives/boot-steps.js';
import { ARCHIVE_READY_TIMEOUT_MS } from './modules/archives/schema.js';
import { archiveServerDefinition, findKiwixServe, type ArchiveServerConfig } from './platform/sidecars/archive-server.js';
import { ProcessSupervisor } from './platform/sidecars/supervisor.js';
import { Catalog } from './modules/features/catalog.js';
import { FeaturesService } from './modules/features/service.js';
import { createDownloadExecutor } from './modules/downloads/jobs.js';
import { DownloadQueueState } from './modules/downloads/queue-state.js';
import { DownloadRunner } from './modules/downloads/runner.js';
import { DownloadsService } from './modules/downloads/service.js';
import { DownloadJobsStore } from './modules/downloads/store.js';
import { archiveToolChecks, archiveTools } from './modules/archives/tools.js';
import { createWebSearchClient, type WebSearchClient } from './adapters/web-search/searxng.js';
import { HomeDeviceFilesService } from './modules/home-inventory/device-files.js';
import { InventoryFiles } from './modules/home-inventory/files.js';
import { HomeLookupService } from './modules/home-inventory/lookup.js';
import { ManualService } from './modules/home-inventory/manual.js';
import { PDF_TASKS_MODULE, PdfTasks } from './modules/home-inventory/pdf-tasks.js';
import type { HomeInventoryServices } from './modules/home-inventory/routes.js';
import { createDeviceSearchProvider } from './modules/home-inventory/search-provider.js';
import { HomeDevicesService } from './modules/home-inventory/service.js';
import { HomeInventoryStore } from './modules/home-inventory/store.js';
import { inventoryToolChecks, inventoryTools } from './modules/home-inventory/tools.js';
import { HomeTransferService } from './modules/home-inventory/transfer.js';
import { HomeWarrantiesService, WARRANTY_SWEEP_MS, WARRANTY_SWEEP_TASK } from './modules/home-inventory/warranties.js';
import type { HomeAiServices } from './modules/home-inventory/ai-routes.js';
import { createHomeInventoryTool } from './modules/home-inventory/chat-tool.js';
import { HomeAskService } from './modules/home-inventory/ask.js';
import { HomeIdentifyService } from './modules/home-inventory/identify.js';
import { HomeMaintenanceService } from './modules/home-inventory/maintenance.js';
import { LabelOcr } from './modules/home-inventory/ocr.js';
import { ImageArtifactsService } from './modules/image-gen/artifacts.js';
import { ImageEditService } from './modules/image-gen/edit.js';
import { EDIT_TASKS_MODULE, LocalEditTasks } from './modules/image-gen/edit-tasks.js';
import { ImageEngineAdminService, type ImageEngineParts } from './modules/image-gen/engine-admin.js';
import { ImageEngineConfig } from './modules/image-gen/engine-config.js';
import { ImageFiles } from './modules/image-gen/files.js';
import { createComfyUiClient } from './adapters/image-engine/comfyui.js';
import { ENGINE_MIN_PYTHON, EngineRuntime } from './modules/image-gen/runtime.js';
import { bootSteps as imageBootSteps } from './modules/image-gen/boot-steps.js';
import { PythonEnvironment } from './platform/sidecars/python-env.js';
import { EngineJobRunner } from './modules/image-gen/runner.js';
import type { ImageJobRows } from './modules/image-gen/ports.js';
import { ENGINE_PORT, ENGINE_READY_DEADLINE_MS } from './modules/image-gen/schema.js';
import { probeImageEngineLaunch } from './platform/image-engine-flags.js';
import { imageEngineDefinition, RotatingLineLog, type ImageEngineSidecarConfig } from './platform/sidecars/image-engine.js';
import { ImageGenerateService } from './modules/image-gen/generate.js';
import { ImagePromptHelpService } from './modules/image-gen/prompt-help.js';
import { createImageGenTool } from './modules/image-gen/chat-tool.js';
import { imageToolChecks, imageTools } from './modules/image-gen/tools.js';
import { ImageLorasService } from './modules/image-gen/loras.js';
import type { ImageServices } from './modules/image-gen/routes.js';
import { ImageGenStore } from './modules/image-gen/store.js';
import { HomeLayout } from './modules/home-layout/schema.js';
import { HomeLayoutService } from './modules/home-layout/service.js';
import { CONDITION_SWEEP_MS, ConditionNotifications } from './modules/notifications/conditions.js';
import { NotificationsService } from './modules/notifications/service.js';
import { DOWNLOADS_FAILED, failedDownloadsText } from './modules/downloads/failures.js';
import { SETUP_MODELS_MISSING } from './modules/setup/install.js';
import { NotificationsStore } from './modules/notifications/store.js';
import { ReaderAccess } from './modules/reader/access.js';
import { ReaderAiService } from './modules/reader/ai.js';
import { ReaderArchiveFiles } from './modules/reader/archive-files.js';
import { createLazyCaptureEngine } from './modules/reader/capture/lazy.js';
import type { CaptureEngine } from './modules/reader/capture/types.js';
import { ReaderCaptureQueue } from './modules/reader/jobs.js';
import { ReaderCollectionsService } from './modules/reader/collections.js';
import { ReaderItemsService } from './modules/reader/items.js';
import { MONITOR_TASK, MONITOR_TICK_MS, ReaderMonitor } from './modules/reader/monitor.js';
import { ReaderProbeService } from './modules/reader/probe.js';
import type { ReaderServices } from './modules/reader/routes.js';
import { createReaderSearchProvider } from './modules/reader/search-provider.js';
import { ReaderStore } from './modules/reader/store.js';
import { readerToolChecks, readerTools } from './modules/reader/tools.js';
import { ReaderTransferService } from './modules/reader/transfer.js';
import { ChatImageFiles } from './modules/chat/images.js';
import type { ChatModelPicker } from './modules/chat/ports.js';
import { RunningAnswers } from './modules/chat/running.js';
import { ChatService } from './modules/chat/service.js';
import { ChatStore } from './modules/chat/store.js';
import { ChatStreamService } from './modules/chat/stream.js';
import { ChatToolRegistry, type ChatTool } from './modules/chat/tools.js';
import { ModelDetailsCache } from './modules/models/details.js';
import { createArchiveSearchProvider } from './modules/archives/search-provider.js';
import { createPageSearchProvider } from './modules/search/pages.js';
import { SearchProviderRegistry, SearchService } from './modules/search/service.js';
import { createToolSearchProvider } from './modules/tools/search-provider.js';
import { conversationSearchProvider } from './modules/chat/search-provider.js';
import { createArchiveSearchTool } from './modules/archives/chat-tool.js';
import { createReaderSearchTool } from './modules/reader/chat-tool.js';
import { ToolRegistry } from './modules/tools/registry.js';
import type { ToolDefinition } from './modules/tools/schema.js';
import { ToolsService } from './modules/tools/service.js';
import { ToolSettingsStore } from './modules/tools/store.js';
import { bootSteps as modelBootSteps } from './modules/models/boot-steps.js';
import { ModelPulls } from './modules/models/pulls.js';
import { ModelsService, visionModelsOf } from './modules/models/service.js';
import { ModelAccessStore } from './modules/models/store.js';
import { bootSteps as systemBootSteps } from './modules/system/boot-steps.js';
import { SetupChecklistService } from './modules/setup/checklist.js';
import { SetupService } from './modules/setup/service.js';
import { BootService, type BootEvent, type BootStepDefinition } from './modules/system/boot.js';
import { systemClock, type Clock } from './platform/clock.js';
import { diskFree, type DiskFree } from './platform/disk.js';
import { createSsrfGuard, type SsrfGuard } from './platform/ssrf.js';
import { EventBus } from './platform/event-bus.js';
import { cachedProbe, createHardwareProbe, type HardwareProbe } from './platform/hardware.js';
import type { NetworkInterfaces } from './platform/lan.js';
import type { Logger } from './platform/logger.js';
import { Scheduler } from './platform/scheduler.js';
import { Semaphore } from './platform/semaphore.js';
import { ParseWorker } from './platform/workers/parse-worker.js';
import { createModelHubClient } from './adapters/model-hub/civitai.js';
import { ModelHubService, type LoraRegistry } from './modules/image-gen/hub.js';
import { createMediaClients, type PlexClientInfo } from './adapters/media-server/plex.js';
import { MediaConnectionService } from './modules/media-server/connection.js';
import { MediaConnectionStore } from './modules/media-server/connection-store.js';
import type { MediaClients, MediaConnection } from './modules/media-server/ports.js';
import { SERVER_TIMEOUT_MS, WATCHED_SWEEP_MS } from './modules/media-server/schema.js';
import { MediaExportStore } from './modules/media-server/export-store.js';
import { MediaExportService } from './modules/media-server/export.js';
import { StorageLocationsService } from './modules/media-server/storage.js';
import { HomeVideosService } from './modules/media-server/home-videos.js';
import { WATCHED_SWEEP_TASK, WatchedSweep } from './modules/media-server/sweep.js';
import { RESOLUTION_TTL_MS } from './modules/media-server/guids.js';
import { MediaLibraryService } from './modules/media-server/library.js';
import { ProgressStore, ResolutionStore } from './modules/media-server/library-store.js';
import { MediaProxy } from './modules/media-server/proxy.js';
import { PrivateSectionIndex } from './modules/media-server/private-sections.js';

export interface Deps {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Knex;
  bus: EventBus;
  scheduler: Scheduler;
  sse: SseRegistry;
  settings: AppSettingsStore;
  preferences: UserPreferencesStore;
  hardware: HardwareProbe;
  modelRuntime: ModelRuntimeClient;
  auth: AuthService;
  setup: SetupService;
  setupChecklist: SetupChecklistService;
  boot: BootService;
  tools: ToolsService;
  notifications: NotificationsService;
  homeLayout: HomeLayoutService;
  guard: SsrfGuard;
  diskFree: DiskFree;
  runner: DownloadRunner;
  downloads: DownloadsService;
  catalog: Catalog;
  features: FeaturesService;
  modelDetails: ModelDetailsCache;
  models: ModelsService;
  archives: ArchivesService;
  archiveDownloads: ArchiveDownloadsService;
  archiveContent: ArchiveContentService;
  archiveRuntime: ArchiveRuntimeService;
  captureEngine: CaptureEngine;
  readerQueue: ReaderCaptureQueue;
  reader: ReaderServices;
  readerAi: ReaderAiService;
  readerMonitor: ReaderMonitor;
  chat: ChatService;
  chatStream: ChatStreamService;
  chatTools: ChatToolRegistry;
  chatRunning: RunningAnswers;
  /** The household inventory (/api/home): its store and files for the other inventory parts, and its services. */
  homeStore: HomeInventoryStore;
  homeFiles: InventoryFiles;
  home: HomeInventoryServices;
  /** Unified search's providers, one per type; a module adds its own (modules/<x>/search-provider.ts). */
  searchProviders: SearchProviderRegistry;
  search: SearchService;
  /** Home inventory: the one label reader (tesseract.js worker), closed by close(). */
  homeOcr: LabelOcr;
  /** Home inventory: identify, Ask the manual, maintenance drafts (routes in home-inventory/ai-routes.ts). */
  homeAi: HomeAiServices;
  /** WEB_SEARCH_URL's client (null when unset); it owns a guard that lets exactly that origin through. */
  webSearch: WebSearchClient | null;
  /** Home inventory: manual download and text extraction (an uploaded PDF's too). */
  homeManuals: ManualService;
  /** Home inventory: the web lookup and generate-specs. */
  homeLookup: HomeLookupService;
  /** Image generation: the external model hub (LoRA search, import through the download queue, its API key). */
  imageHub: ModelHubService;
  /** Image generation (/api/image, /api/admin/image-loras, /api/admin/image-engine): its store and services. */
  imageStore: ImageGenStore;
  image: ImageServices;
  /** The image engine's queue and process (stopped by close()). */
  imageRuntime: { stop(): Promise<void> };
  /** The local edits' worker thread, closed by close(). */
  imageEditTasks: LocalEditTasks;
  /** The media server (the household's Plex): the three clients (close() ends the server clients' guards) and the connection. */
  mediaClients: MediaClients & { close(): Promise<void> };
  mediaConnection: MediaConnectionService;
  /** Members' private media libraries: storage locations, provisioning (its queue stopped by close()). */
  mediaStorage: StorageLocationsService;
  mediaExport: MediaExportService;
  homeVideos: HomeVideosService;
  /** Rule 6's watched sweep (every 15 minutes). */
  mediaSweep: WatchedSweep;
  /** Feeds, titles, rule 4's cache, the watchlist and watched sync; also the export sweep's WatchedLookup. */
  mediaLibrary: MediaLibraryService;
  /** /img and /stream through the shared server (the picture cache under DATA_DIR/cache/media-img). */
  mediaProxy: MediaProxy;
  /** Members' private library sections: the library and the proxies hide them from everyone else. */
  mediaPrivateSections: PrivateSectionIndex;
  tuning: Tuning;
  /** The machine's network interfaces, for the addresses other devices use (tests pass their own). */
  networkInterfaces: () => NetworkInterfaces;
  /** Requests per client on the anonymous routes that cost work; app.ts closes them. */
  limits: { signIn: RequestLimit; setup: RequestLimit };
}

/** Timing knobs tests shorten; production uses the defaults. */
export interface Tuning {
  downloadStallTimeoutMs?: number;
  downloadBackoffBaseMs?: number;
  /** How often the reader change monitor looks for due items (default 5 min). */
  readerMonitorTickMs?: number;
  /** Bytes of archive entries kept in memory by the content proxy (default 32 MB; 0 turns the cache off). */
  archiveCacheBytes?: number;
  /** Requests per minute one client may send to select + verify-pin (default 30). */
  signInRequestsPerMinute?: number;
  /** Requests per minute one client may send to the anonymous setup routes (default 60). */
  setupRequestsPerMinute?: number;
  /** PIN lock and pacing rules (defaults in modules/auth/throttle.ts). */
  pinThrottle?: Partial<PinThrottleRules>;
  /** How long one look at the model runtime's models serves every readiness question (default 3 s). */
  runtimeLookTtlMs?: number;
  /** How long chat waits for the model's first word (default FIRST_TOKEN_BUDGET_MS, 90 s). */
  chatFirstTokenMs?: number;
  /** How long chat waits for the router model's title (default 20 s). */
  chatTitleMs?: number;
  /** How long unified search waits for its slowest provider (default 1.5 s). */
  searchBudgetMs?: number;
  /** One label photo's OCR budget (default 20 s). */
  ocrBudgetMs?: number;
  /** Each model answer of identify and Ask the manual (default 120 s). */
  inventoryModelMs?: number;
  /** Per web search of the inventory lookup (default 10 s). */
  webSearchTimeoutMs?: number;
  /** Budget of one manual's text extraction in the parse worker (default 60 s). */
  manualExtractMs?: number;
  /** Largest LoRA file import-file takes (default MAX_LORA_BYTES, 2 GB). */
  imageLoraMaxBytes?: number;
  /** The engine queue's stall timer for pictures (default 30 s). */
  imageStallMs?: number;
  /** The engine queue's stall timer for video and i2v clips (default 20 minutes). */
  imageStallVideoMs?: number;
  /** How often the engine queue asks the engine's own queue whether the running job is still there (default 5 s). */
  imageQueuePollMs?: number;
  /** How long a look at the media server's health, or at a member's Plex token, serves (default 60 s). */
  mediaHealthTtlMs?: number;
  /** How long each connection candidate may take to answer during server discovery (default 3 s). */
  mediaProbeMs?: number;
  /** How often provisioning looks whether the media server's scan of a new library is done (default 1 s). */
  mediaScanPollMs?: number;
  /** Largest home video a member may upload (default MAX_HOME_VIDEO_BYTES). */
  homeVideoMaxBytes?: number;
  /** How long an unfinished home-video upload is kept (default one day). */
  homeVideoUploadExpiryMs?: number;
}

/** What tests and the CLI may replace; production passes nothing. */
export type Overrides = Partial<Pick<Deps, 'logger' | 'clock' | 'hardware' | 'modelRuntime' | 'diskFree' | 'tuning' | 'captureEngine' | 'networkInterfaces'>> & {
  /** Chat tools to register (tests' stand-ins); each id is an Extension's. */
  chatTools?: ChatTool[];
  /** Extra Extensions in the tool registry, for tests' stand-in chat tools. */
  extensions?: ToolDefinition[];
  /** Who may use which chat model (the models module's per-member access replaces the simple picker). */
  chatModelPicker?: ChatModelPicker;
  /** Where the model hub registers imported LoRAs (until the LoRA service is wired in, tests pass a store-backed one). */
  imageLoraRegistry?: LoraRegistry;
  /** The image engine's client, runtime and queue (tests' stand-ins, until the engine part is wired here). */
  imageEngine?: ImageEngineParts;
  /** The export's view of the shared media-server connection (a test's stand-in; default: the real one). */
  mediaConnection?: MediaConnection;
};

export function buildContainer(base: { config: Config; logger: Logger; db: Knex; migrations: number }, overrides: Overrides = {}): Deps {
  const { config, logger, db } = base;
  const clock = overrides.clock ?? systemClock;
  const now = () => clock.now();
  const bus = new EventBus(logger.child('bus'));
  const scheduler = new Scheduler(logger.child('scheduler'));
  const settings = new AppSettingsStore(db, now);
  const preferences = new UserPreferencesStore(db, now);
  const hardware = overrides.hardware ?? cachedProbe(createHardwareProbe(config.dataDir));
  const modelRuntime = overrides.modelRuntime ?? createOllamaClient({ baseUrl: config.modelRuntimeUrl, timeoutMs: 3000 });

  const tuning = overrides.tuning ?? {};
  const auth = new AuthService({
    store: new AuthStore(db),
    bus,
    clock,
    logger: logger.child('auth'),
    throttle: new PinThrottle(clock, tuning.pinThrottle),
    // two of libuv's four threads at most: file and DNS work keep the others
    pinSlots: new Semaphore(2),
    pinHashCost: config.pinHashCost,
  });
  const limits = {
    signIn: createRequestLimit({ perMinute: tuning.signInRequestsPerMinute ?? 30, message: 'Too many sign-in attempts from this device.' }),
    setup: createRequestLimit({ perMinute: tuning.setupRequestsPerMinute ?? 60, message: 'Too many setup requests from this device.' }),
  };
  const notificationsStore = new NotificationsStore(db);
  const notifications = new NotificationsService({ store: notificationsStore, clock, auth });
  // notifications that describe a condition: one per key, removed once the condition ends
  const conditions = new ConditionNotifications({ store: notificationsStore, clock, logger: logger.child('conditions') });
  const builtinDefault = HomeLayout.parse(JSON.parse(readFileSync(path.join(config.resourcesDir, 'data', 'default-home-layout.json'), 'utf8')));
  const homeLayout = new HomeLayoutService({ preferences, settings, auth, builtinDefault });

  const guard = createSsrfGuard({ allowOrigins: config.fetchAllowOrigins, offline: config.offline });
  const disk = overrides.diskFree ?? diskFree;
  const jobsStore = new DownloadJobsStore(db);
  // The queue state (paused, where a destination lies) is built first and handed to both the
  // runner and the service, so neither needs the other to exist first.
  // the one place models are pulled into the runtime: the queue's model jobs and boot's repairs
  const modelPulls = new ModelPulls(modelRuntime);
  const queueState = new DownloadQueueState({ settings, dataDir: config.dataDir });
  const runner = new DownloadRunner({
    store: jobsStore,
    clock,
    logger: logger.child('downloads'),
    bus,
    isPaused: queueState.isPaused,
    isOffline: () => config.offline,
    backoffBaseMs: tuning.downloadBackoffBaseMs,
    execute: createDownloadExecutor({
      guard,
      pulls: modelPulls,
      destinationPath: queueState.destinationPath,
      stallTimeoutMs: tuning.downloadStallTimeoutMs,
      // the model hub's API key, asked for at each attempt so it is never kept in a job's row
      headersFor: (job): Promise<Record<string, string> | null> => imageHub.downloadHeaders(job),
    }),
  });
  const downloads = new DownloadsService({ store: jobsStore, runner, state: queueState, clock, dataDir: config.dataDir, offline: config.offline, diskFree: disk });

  // Image generation's model hub: the household's key stays in app settings; files go through the queue.
  const imageHub: ModelHubService = new ModelHubService({
    client: createModelHubClient({ baseUrl: config.modelHubUrl, guard }),
    settings,
    // late-bound: the LoRA service is built with the rest of image generation below
    registry: overrides.imageLoraRegistry ?? { register: (input) => imageLoras.registerFromHub(input), findByExternalId: (id) => imageLoras.findByExternalId(id) },
    downloads: {
      enqueue: async (actor, job) => (await downloads.enqueue(actor, [job]))[0]!,
      progress: (id) => downloads.progress(id),
      destinationPath: (d) => downloads.destinationPath(d),
    },
    // the engine reads this folder too (its extra_model_paths); the engine runtime may name its own
    lorasDir: () => imageConfig.lorasDir(),
    logger: logger.child('image-hub'),
  });

  const catalog = Catalog.load(config.featureCatalogPath);
  const modelDetails = new ModelDetailsCache({ runtime: modelRuntime, now: () => clock.now().getTime() });
  const features = new FeaturesService({
    modelCapabilities: async (model) => (await modelDetails.get(model)).capabilities,
    catalog,
    settings,
    downloads,
    runtime: modelRuntime,
    clock,
    hardware,
    logger: logger.child('features'),
    runtimeLookTtlMs: overrides.tuning?.runtimeLookTtlMs,
  });
  const models = new ModelsService({
    runtime: modelRuntime,
    details: modelDetails,
    features,
    downloads,
    auth,
    store: new ModelAccessStore(db),
    hardware,
    clock,
    offline: config.offline,
    preferredVisionModels: visionModelsOf(catalog),
  });
  const setupChecklist = new SetupChecklistService({ runtime: modelRuntime, features, downloads, auth });
  // setup without the models ends once the checklist's models item is done
  conditions.watch(SETUP_MODELS_MISSING, async () => ((await setupChecklist.checklist(SYSTEM_ACTOR)).items.find((i) => i.key === 'models')?.done ? null : true));
  conditions.watch(DOWNLOADS_FAILED, () => failedDownloadsText(downloads));
  const setup = new SetupService({ auth, settings, runtime: modelRuntime, conditions, searchPath: config.searchPath, features, downloads, catalog, hardware });

  const kiwix = createKiwixClient({ baseUrl: `http://127.0.0.1:${config.archiveServerPort}` });
  const kiwixBinary = () =>
    findKiwixServe({ explicit: config.kiwixServePath, resourcesDir: config.resourcesDir, dataDir: config.dataDir, searchPath: config.searchPath });
  const archiveServer = new ProcessSupervisor<ArchiveServerConfig>(
    archiveServerDefinition({
      binary: kiwixBinary,
      port: config.archiveServerPort,
      probe: (signal) => kiwix.probe(signal),
      readinessTimeoutMs: ARCHIVE_READY_TIMEOUT_MS,
      pidFile: path.join(config.dataDir, 'run', 'archive-server.pid'),
    }),
    logger.child('archive-server'),
  );
  const archiveStore = new ArchivesStore(db);
  const archiveCache = new ArchiveEntryCache({ maxBytes: tuning.archiveCacheBytes });
  const archiveCatalog = loadArchiveCatalog(config.archiveCatalogPath);
  const archives = new ArchivesService({
    store: archiveStore,
    catalog: archiveCatalog,
    supervisor: archiveServer,
    kiwix,
    isInstalled: () => kiwixBinary() !== null,
    clock,
    logger: logger.child('archives'),
    cache: archiveCache,
  });
  const archiveDownloads = new ArchiveDownloadsService({
    archives,
    store: archiveStore,
    catalog: archiveCatalog,
    guard,
    dataDir: config.dataDir,
    offline: config.offline,
    clock,
    stallTimeoutMs: tuning.downloadStallTimeoutMs,
  });
  const archiveContent = new ArchiveContentService({ archives, downloads: archiveDownloads, store: archiveStore, supervisor: archiveServer, kiwix, cache: archiveCache });
  const archiveRuntime = new ArchiveRuntimeService({
    archives,
    supervisor: archiveServer,
    isInstalled: () => kiwixBinary() !== null,
    guard,
    dataDir: config.dataDir,
    offline: config.offline,
    logger: logger.child('archives'),
    stallTimeoutMs: tuning.downloadStallTimeoutMs,
    kiwixToolsUrl: config.kiwixToolsUrl,
  });

  // Each feature module contributes its own tool definitions, and what they need to work.
  const registry = new ToolRegistry().register(...readerTools, ...archiveTools, ...inventoryTools, ...imageTools, ...(overrides.extensions ?? []));
  const checks = {
    ...archiveToolChecks({ archives, chatReadiness: () => features.chatReadiness() }),
    ...readerToolChecks({ chatReadiness: () => features.chatReadiness() }),
    ...inventoryToolChecks({ chatReadiness: () => features.chatReadiness() }),
    ...imageToolChecks({ chatReadiness: () => features.chatReadiness(), engineConfigured: () => imageEngineAdmin.configured() }),
  };
  const tools = new ToolsService({ registry, store: new ToolSettingsStore(db, now), notifications, checks });

  // The shared browser launches on the first capture, not here.
  // a capture browser profile left in the temp folder by a Hearth that was killed goes now
  const browserFiles = captureBrowserFiles(path.join(config.dataDir, 'run'), logger);
  const swept = browserFiles.sweep();
  if (swept.length) logger.info({ removed: swept.length }, 'removed capture browser profiles left by an earlier run');
  const captureEngine = overrides.captureEngine ?? createLazyCaptureEngine({ guard, chromiumPath: config.chromiumPath, logger, browserFiles });
  const readerStore = new ReaderStore(db);
  const readerQueue = new ReaderCaptureQueue({ store: readerStore, engine: captureEngine, clock, logger: logger.child('reader-capture'), guard, dataDir: config.dataDir });
  const readerAccess = new ReaderAccess({ store: readerStore, preferences });
  const readerCollections = new ReaderCollectionsService({ store: readerStore, clock });
  const readerItems = new ReaderItemsService({ store: readerStore, access: readerAccess, collections: readerCollections, queue: readerQueue, preferences, guard, clock, dataDir: config.dataDir });
  const reader: ReaderServices = {
    access: readerAccess,
    items: readerItems,
    collections: readerCollections,
    files: new ReaderArchiveFiles({ store: readerStore, access: readerAccess, clock, dataDir: config.dataDir }),
    transfer: new ReaderTransferService({ store: readerStore, access: readerAccess, collections: readerCollections, queue: readerQueue, clock, logger: logger.child('reader') }),
    probe: new ReaderProbeService({ access: readerAccess, guard }),
  };
  const readerAi = new ReaderAiService({ access: readerAccess, items: readerItems, store: readerStore, models: features, runtime: modelRuntime });
  const readerMonitor = new ReaderMonitor({ store: readerStore, capture: readerQueue, notifications, clock, logger: logger.child('reader-monitor') });

  // The household inventory.
  const homeStore = new HomeInventoryStore(db);
  const homeFiles = new InventoryFiles(config.dataDir);
  // Home inventory, the web lookup's part: the household's own search server (often on the LAN) is
  // reached through a guard that lets exactly its origin through; what it finds goes through `guard`.
  const inventoryLog = logger.child('home-inventory');
  const homeManuals = new ManualService({
    store: homeStore,
    files: homeFiles,
    guard,
    pdf: new PdfTasks(new ParseWorker({ handlers: PDF_TASKS_MODULE, taskTimeoutMs: tuning.manualExtractMs ?? 60_000, logger: inventoryLog })),
    clock,
    logger: inventoryLog,
    extractTimeoutMs: tuning.manualExtractMs,
  });
  const webSearch = config.webSearchUrl
    ? createWebSearchClient({
        baseUrl: config.webSearchUrl,
        guard: createSsrfGuard({ allowOrigins: [...config.fetchAllowOrigins, new URL(config.webSearchUrl).origin], offline: config.offline }),
        timeoutMs: tuning.webSearchTimeoutMs,
      })
    : null;
  const homeLookup = new HomeLookupService({
    store: homeStore,
    files: homeFiles,
    manuals: homeManuals,
    search: webSearch,
    guard,
    offline: config.offline,
    runtime: modelRuntime,
    picker: models,
    backgroundTextModel: () => features.chosenModel('chat'),
    clock,
    logger: inventoryLog,
  });

  const homeDevices = new HomeDevicesService({
    store: homeStore,
    files: homeFiles,
    auth,
    clock,
    logger: logger.child('home-inventory'),
    lookup: homeLookup,
  });
  const home: HomeInventoryServices = {
    devices: homeDevices,
    files: new HomeDeviceFilesService({ store: homeStore, files: homeFiles, devices: homeDevices, manuals: homeManuals, clock, logger: logger.child('home-inventory') }),
    warranties: new HomeWarrantiesService({ store: homeStore, notifications, clock, logger: logger.child('home-inventory') }),
    transfer: new HomeTransferService({ store: homeStore, clock }),
  };

  // Image generation: each member's pictures, the household's LoRAs, the engine's setup.
  const imageStore = new ImageGenStore(db);
  const imageConfig = new ImageEngineConfig({ settings, dataDir: config.dataDir, externalUrl: config.imageEngineUrl ?? null });
  const imageFiles = new ImageFiles(config.dataDir, () => imageConfig.lorasDir());
  // the engine: IMAGE_ENGINE_URL as it is, or the household's ComfyUI run by the one supervisor on 127.0.0.1
  const imageClient = createComfyUiClient({ baseUrl: config.imageEngineUrl ?? `http://127.0.0.1:${ENGINE_PORT}` });
  const imageEngineLog = new RotatingLineLog(path.join(config.dataDir, 'logs', 'image-engine.log'));
  const imageSupervisor = new ProcessSupervisor<ImageEngineSidecarConfig>(
    imageEngineDefinition({
      port: ENGINE_PORT,
      readinessTimeoutMs: ENGINE_READY_DEADLINE_MS,
      probe: async (signal) => (await imageClient.systemStats(signal), true),
      pidFile: path.join(config.dataDir, 'run', 'image-engine.pid'),
    }),
    imageEngineLog.asLogger(),
  );
  // the engine's own Python environment, made by Hearth from the install's requirement files before it starts
  const imageEnvironment = new PythonEnvironment({ venvDir: path.join(config.dataDir, 'image-engine', 'venv'), minVersion: ENGINE_MIN_PYTHON, log: (line) => imageEngineLog.write(line) });
  const imageRuntime = new EngineRuntime({
    client: imageClient,
    external: config.imageEngineUrl !== undefined,
    settings,
    supervisor: imageSupervisor,
    launch: () => probeImageEngineLaunch(hardware),
    log: imageEngineLog,
    now,
    environment: imageEnvironment,
  });
  // the household's one engine queue; it writes each job's row through imageRows (late-bound: the
  // artifact view asks the queue for a waiting job's position)
  const imageRows: ImageJobRows = {
    update: (id, patch) => imageStore.updateArtifact(id, patch),
    artifact: async (id) => {
      const row = await imageStore.artifact(id);
      return row ? imageArtifacts.view(row) : null;
    },
  };
  const imageRunner = overrides.imageEngine
    ? null
    : new EngineJobRunner({ client: imageClient, runtime: imageRuntime, rows: imageRows, imagesDir: imageFiles.root, logger: logger.child('image-runner'), now, stallMs: tuning.imageStallMs, stallVideoMs: tuning.imageStallVideoMs, queuePollMs: tuning.imageQueuePollMs });
  const imageEngine: ImageEngineParts = overrides.imageEngine ?? { runtime: imageRuntime, client: imageClient, runner: imageRunner };
  const imageLog = logger.child('image-gen');
  const imageArtifacts = new ImageArtifactsService({ store: imageStore, files: imageFiles, clock, runner: imageEngine.runner });
  // auto colour and adjust: sharp in a worker thread, one picture at a time
  const imageEditTasks = new LocalEditTasks(new ParseWorker({ handlers: EDIT_TASKS_MODULE, taskTimeoutMs: 120_000, maxOldGenerationSizeMb: 1024, logger: imageLog }));
  const imageLoras = new ImageLorasService({ store: imageStore, files: imageFiles, engine: imageConfig, clock, users: auth });
  const imageEngineAdmin = new ImageEngineAdminService({ ...imageEngine, config: imageConfig, hardware });
  const imageEdit = new ImageEditService({ store: imageStore, files: imageFiles, artifacts: imageArtifacts, tasks: imageEditTasks, clock, logger: imageLog });
  const image: ImageServices = {
    artifacts: imageArtifacts,
    loras: imageLoras,
    engine: imageEngineAdmin,
    edit: imageEdit,
    generate: new ImageGenerateService({ store: imageStore, files: imageFiles, artifacts: imageArtifacts, loras: imageLoras, edit: imageEdit, engine: imageEngineAdmin, config: imageConfig, ...imageEngine, clock }),
    help: new ImagePromptHelpService({ models, runtime: modelRuntime, loras: imageLoras, artifacts: imageArtifacts, runner: imageEngine.runner, timeoutMs: tuning.inventoryModelMs }),
  };

  const chatStore = new ChatStore(db);
  const chatFiles = new ChatImageFiles(config.dataDir);
  const chatRunning = new RunningAnswers();
  // Each module that owns household knowledge registers its chat tool here; a test's stand-in
  // (overrides.chatTools) takes the place of the real tool with the same id.
  const standIns = overrides.chatTools ?? [];
  const chatTools = new ChatToolRegistry().register(
    ...[createArchiveSearchTool({ archives }), createReaderSearchTool({ items: readerItems }), createHomeInventoryTool({ store: homeStore, clock }), createImageGenTool({ generate: image.generate })].filter((t) => !standIns.some((s) => s.id === t.id)),
    ...standIns,
  );
  const chat = new ChatService({ store: chatStore, files: chatFiles, running: chatRunning, clock });
  const chatStream = new ChatStreamService({
    chat,
    store: chatStore,
    files: chatFiles,
    running: chatRunning,
    runtime: modelRuntime,
    details: modelDetails,
    picker: overrides.chatModelPicker ?? models,
    looker: features,
    tools: chatTools,
    extensions: tools,
    clock,
    logger: logger.child('chat'),
    firstTokenMs: tuning.chatFirstTokenMs,
    titleMs: tuning.chatTitleMs,
  });

  // Unified search: each module's provider, answering for what the caller may see.
  const searchProviders = new SearchProviderRegistry().register(
    createReaderSearchProvider({ items: readerItems, isEnabled: () => tools.isEnabled('reader') }),
    createArchiveSearchProvider({ archives, isEnabled: () => tools.isEnabled('library') }),
    createDeviceSearchProvider({ devices: homeDevices, isEnabled: () => tools.isEnabled('inventory') }),
    createToolSearchProvider({ tools }),
    createPageSearchProvider({ isEnabled: (toolId) => tools.isEnabled(toolId) }),
    conversationSearchProvider(chat),
  );
  const search = new SearchService({ registry: searchProviders, logger: logger.child('search'), budgetMs: tuning.searchBudgetMs });

  // Home inventory, the AI part: the label reader (identify).
  const homeAiLog = logger.child('home-inventory');
  const homeOcr = new LabelOcr({ logger: homeAiLog, budgetMs: tuning.ocrBudgetMs });
  const homeAi: HomeAiServices = {
    identify: new HomeIdentifyService({ store: homeStore, files: homeFiles, ocr: homeOcr, models, runtime: modelRuntime, clock, logger: homeAiLog, modelTimeoutMs: tuning.inventoryModelMs }),
    ask: new HomeAskService({ store: homeStore, models, runtime: modelRuntime, logger: homeAiLog, modelTimeoutMs: tuning.inventoryModelMs }),
    maintenance: new HomeMaintenanceService({ store: homeStore, clock }),
  };

  // The media server: plex.tv and discover through the one guard; the server (and each candidate an
  // admin's discovery probes) through a guard naming only its origin. The client identifier is
  // filled in from app settings by the connection, once per install.
  const mediaClientInfo: PlexClientInfo = { clientIdentifier: '', product: 'Hearth', version: readVersion(config.rootDir), platform: process.platform, device: 'Hearth server', deviceName: os.hostname() || 'Hearth' };
  const mediaClients = createMediaClients({
    accountUrl: config.mediaAccountUrl,
    discoverUrl: config.mediaDiscoverUrl,
    linkPageUrl: config.mediaLinkPageUrl,
    guard,
    allowOrigins: config.fetchAllowOrigins,
    offline: config.offline,
    client: mediaClientInfo,
    timeoutMs: SERVER_TIMEOUT_MS,
    logger: logger.child('media-server'),
  });
  const mediaConnection = new MediaConnectionService({ store: new MediaConnectionStore(db), clients: mediaClients, settings, clientInfo: mediaClientInfo, clock, logger: logger.child('media-server'), healthTtlMs: tuning.mediaHealthTtlMs, probeMs: tuning.mediaProbeMs });
  const mediaResolutions = new ResolutionStore(db, clock);
  const mediaExportStore = new MediaExportStore(db);
  // members' private sections (the export's), hidden from everyone else by the library and the proxies
  const mediaPrivateSections = new PrivateSectionIndex({ store: mediaExportStore, version: tableWrites(db, ['media_library_sections', 'users']) });
  const mediaLibrary = new MediaLibraryService({ connection: mediaConnection, discover: mediaClients.discover, resolutions: mediaResolutions, progress: new ProgressStore(db), privateSections: mediaPrivateSections, clock, logger: logger.child('media-library') });
  const mediaProxy = new MediaProxy({ connection: mediaConnection, privateSections: mediaPrivateSections, cacheDir: path.join(config.dataDir, 'cache', 'media-img'), logger: logger.child('media-server') });

  // Each module contributes its own boot steps; they run in this order.
  const steps: BootStepDefinition[] = [
    ...systemBootSteps({ pingDatabase: () => db.raw('select 1'), migrations: base.migrations, hardware }),
    ...modelBootSteps({ runtime: modelRuntime, pulls: modelPulls, features, setup, offline: config.offline }),
    // a test's stand-in engine parts have no environment to prepare
    ...imageBootSteps({ prepareIfOutdated: overrides.imageEngine ? () => Promise.resolve('current' as const) : () => imageRuntime.prepareIfOutdated() }),
    ...archiveBootSteps({ archives }),
  ];
  const boot = new BootService({ channel: new ReplayChannel<BootEvent>(), logger: logger.child('boot'), steps });

  wireEvents(bus, { features, readerItems, chat, models, imageHub, imageArtifacts, conditions, downloads });

  // the export's view of the shared media server (tests may hand it a stand-in)
  const exportConnection: MediaConnection = overrides.mediaConnection ?? mediaConnection;
  const mediaLog = logger.child('media-export');
  const mediaStorage = new StorageLocationsService({ store: mediaExportStore, connection: exportConnection, diskFree: disk, clock, logger: mediaLog });
  const mediaExport = new MediaExportService({ store: mediaExportStore, storage: mediaStorage, connection: exportConnection, members: auth, clock, logger: mediaLog, scanPollMs: tuning.mediaScanPollMs });

  const homeVideos = new HomeVideosService({ store: mediaExportStore, exports: mediaExport, connection: exportConnection, clock, logger: mediaLog, uploadDir: path.join(config.dataDir, 'media-uploads'), uploadExpiryMs: tuning.homeVideoUploadExpiryMs, maxBytes: tuning.homeVideoMaxBytes });
  scheduler.every('media.upload-cleanup', 60 * 60_000, async () => {
    await homeVideos.cleanExpiredUploads();
  });
  // watched by the server's view count (the member's token) or Hearth's own completed flag: the
  // library's lookup; a test's stand-in connection keeps the sweep's own view-count lookup
  const mediaSweep = new WatchedSweep({ store: mediaExportStore, videos: homeVideos, connection: exportConnection, clock, logger: mediaLog, ...(overrides.mediaConnection ? {} : { watched: mediaLibrary }) });
  scheduler.every(WATCHED_SWEEP_TASK, WATCHED_SWEEP_MS, async () => {
    await mediaSweep.run();
  });

  // rule 4's cache keeps 30 days; older resolutions are only dead weight
  scheduler.every('media.resolutions-prune', 24 * 60 * 60 * 1000, async () => {
    await mediaResolutions.prune(RESOLUTION_TTL_MS);
  });
  scheduler.every('auth.session-sweep', 60 * 60 * 1000, async () => {
    await auth.sweepExpiredSessions();
  });
  scheduler.every('notifications.conditions', CONDITION_SWEEP_MS, async () => {
    await conditions.sweep();
  });
  scheduler.every(WARRANTY_SWEEP_TASK, WARRANTY_SWEEP_MS, async () => {
    await home.warranties.sweep();
  });
  scheduler.every(MONITOR_TASK, tuning.readerMonitorTickMs ?? MONITOR_TICK_MS, async () => {
    await readerMonitor.tick();
  });

  return { config, logger, clock, db, bus, scheduler, sse: new SseRegistry(logger.child('http')), settings, preferences, hardware, modelRuntime, auth, setup, setupChecklist, boot, tools, notifications, homeLayout, guard, diskFree: disk, runner, downloads, catalog, features, archives, archiveDownloads, archiveContent, archiveRuntime, captureEngine, readerQueue, reader, readerAi, readerMonitor, modelDetails, models, chat, chatStream, chatTools, chatRunning, homeStore, homeFiles, home, homeOcr, homeAi, webSearch, homeManuals, homeLookup, imageHub, searchProviders, search, imageStore, image, imageRuntime: { stop: async () => { await imageEngine.runner?.stop(); await (imageEngine.runtime ?? imageRuntime).stop(); } }, imageEditTasks, mediaClients, mediaConnection, mediaStorage, mediaExport, homeVideos, mediaSweep, mediaLibrary, mediaProxy, mediaPrivateSections, tuning, networkInterfaces: overrides.networkInterfaces ?? (() => os.networkInterfaces()), limits };
}

/** The app's version from package.json (Plex shows it in the account's Authorized Devices). */
function readVersion(rootDir: string): string {
  try {
    return (JSON.parse(readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { version?: string }).version ?? '0';
  } catch {
    return '0';
  }
}

/**
 * Every bus listener, in one place: who reacts to which cross-feature fact. A module emits without
 * knowing the listener.
 */
export function wireEvents(
  bus: EventBus,
  on: { features: FeaturesService; readerItems: ReaderItemsService; chat: ChatService; models: ModelsService; imageHub: ModelHubService; imageArtifacts: ImageArtifactsService; conditions: ConditionNotifications; downloads: DownloadsService },
): void {
  bus.on('download.completed', (e) => on.features.onDownloaded(e.itemId));
  // a download that failed for good tells the admins (again, unread, when another one fails)
  bus.on('download.failed', async () => {
    const text = await failedDownloadsText(on.downloads);
    if (text) await on.conditions.raise(DOWNLOADS_FAILED, text, { unread: true });
  });
  // a finished download may end a condition (the models setup left out, failed downloads retried)
  bus.on('download.completed', () => on.conditions.sweep());
  // a LoRA imported from the model hub is registered once the queue has its whole file
  bus.on('download.completed', (e) => on.imageHub.onDownloaded(e));
  // a deleted member's Reader items and conversations went with their row; their files on disk go here
  bus.on('user.deleted', async (e) => {
    await on.readerItems.removeOrphanFiles();
    await on.chat.onUserDeleted(e.userId);
  });
  // a deleted member's model allow-list goes with them
  bus.on('user.deleted', (e) => on.models.onUserDeleted(e.userId));
  // a deleted member's pictures went with their row; their folder of files goes here
  bus.on('user.deleted', (e) => on.imageArtifacts.onUserDeleted(e.userId));
}
