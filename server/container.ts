// The composition root: the only place long-lived objects are built. createServer() calls it after
// the database is open and migrated. It builds the platform (what every module may use), then each
// module (server/modules/<x>/module.ts) in start order, handing each the ports it asks for from the
// modules built before it; then each module gathers what the others contribute (chat tools, search
// providers, Extensions, boot steps), the scheduler gets every module's tasks and the bus every
// listener. Adding a module: its folder, its module.ts, one line in buildModules. Tests swap pieces
// through `overrides`.
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createOllamaClient, type ModelRuntimeClient } from './adapters/model-runtime/ollama.js';
import type { Config } from './config.js';
import { tableWrites } from './db/connection.js';
import { AppSettingsStore, UserPreferencesStore } from './db/kv.js';
import { SseRegistry } from './http/sse.js';
import { createArchivesModule } from './modules/archives/module.js';
import { archiveArticleUrl } from './modules/archives/public.js';
import { createAuthModule } from './modules/auth/module.js';
import type { ChatModelPicker } from './modules/chat/ports.js';
import { createChatModule } from './modules/chat/module.js';
import { createCompanionsModule } from './modules/companions/module.js';
import { createContentModule } from './modules/content/module.js';
import type { ChatTool } from './modules/chat/tool-registry.js';
import { createDownloadsModule } from './modules/downloads/module.js';
import { createFeaturesModule } from './modules/features/module.js';
import { createHomeInventoryModule } from './modules/home-inventory/module.js';
import { createHomeLayoutModule } from './modules/home-layout/module.js';
import type { ImageEngineParts } from './modules/image-gen/engine-admin-service.js';
import type { LoraRegistry } from './modules/image-gen/hub-service.js';
import { createImageGenModule } from './modules/image-gen/module.js';
import { createMemoryModule } from './modules/memory/module.js';
import { createMapsModule } from './modules/maps/module.js';
import { createMediaServerModule } from './modules/media-server/module.js';
import type { MediaConnection } from './modules/media-server/parts.js';
import { createModelsModule } from './modules/models/module.js';
import type { ModuleManifest, Platform, Tuning } from './modules/module.js';
import { createNotificationsModule } from './modules/notifications/module.js';
import { createConverterModule } from './modules/converter/module.js';
import { createSpeedtestModule } from './modules/speedtest/module.js';
import { createNotifyModule } from './modules/notify/module.js';
import { createSkillsModule } from './modules/skills/module.js';
import { createStorageModule } from './modules/storage/module.js';
import { createPodcastsModule } from './modules/podcasts/module.js';
import { createShowsModule } from './modules/shows/module.js';
import { createVideosModule } from './modules/videos/module.js';
import { createMoviesModule } from './modules/movies/module.js';
import { createLookupModule } from './modules/lookup/module.js';
import { createShoppingModule } from './modules/shopping/module.js';
import { createReaderModule } from './modules/reader/module.js';
import type { CaptureEngine } from './modules/reader/capture/types.js';
import { createSearchModule } from './modules/search/module.js';
import { createSetupModule } from './modules/setup/module.js';
import { createSystemModule } from './modules/system/module.js';
import { createHomeAssistantModule } from './modules/home-assistant/module.js';
import { createVisionModule } from './modules/vision/module.js';
import { createTodayModule } from './modules/today/module.js';
import { createTlsModule } from './modules/tls/module.js';
import { createConnectivityModule } from './modules/connectivity/module.js';
import { createBenchmarksModule } from './modules/benchmarks/module.js';
import { createToolsModule } from './modules/tools/module.js';
import { createVoiceModule } from './modules/voice/module.js';
import type { ToolDefinition } from './modules/tools/schema.js';
import { createMusicModule } from './modules/music/module.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createDiskSpace, diskFree, diskUsage, type DiskFree, type DiskUsage } from './platform/disk.js';
import { EventBus } from './platform/event-bus.js';
import { cachedProbe, createHardwareProbe, type HardwareProbe } from './platform/hardware.js';
import type { NetworkInterfaces } from './platform/lan.js';
import type { Logger } from './platform/logger.js';
import { machineSummary } from './platform/hardware.js';
import { OfflineSwitch } from './platform/offline-switch.js';
import { Scheduler } from './platform/scheduler.js';
import { createSsrfGuard } from './platform/ssrf.js';
import { TlsManager } from './platform/tls/manager.js';
import { createLocaleModule } from './modules/locale/module.js';

export type { Platform, Tuning };

/** What tests and the CLI may replace; production passes nothing. */
export interface Overrides {
  logger?: Logger;
  clock?: Clock;
  hardware?: HardwareProbe;
  modelRuntime?: ModelRuntimeClient;
  diskFree?: DiskFree;
  /** Free and total bytes of a disk (tests: a nearly full disk for the storage warning). */
  diskUsage?: DiskUsage;
  tuning?: Tuning;
  captureEngine?: CaptureEngine;
  networkInterfaces?: () => NetworkInterfaces;
  /** Chat tools to register (tests' stand-ins); each id is an Extension's. */
  chatTools?: ChatTool[];
  /** Extra Extensions in the tool registry, for tests' stand-in chat tools. */
  extensions?: ToolDefinition[];
  /** Who may use which chat model (the models module's per-member access replaces the simple picker). */
  chatModelPicker?: ChatModelPicker;
  /** Where the model hub registers imported LoRAs (tests pass a store-backed one). */
  imageLoraRegistry?: LoraRegistry;
  /** The image engine's client, runtime and queue (tests' stand-ins). */
  imageEngine?: ImageEngineParts;
  /** The export's view of the shared media-server connection (a test's stand-in; default: the real one). */
  mediaConnection?: MediaConnection;
}

/**
 * Every module, in start order: each is handed the ports it asks for (its ports.ts) from the modules
 * before it. A port onto a module built later is a function called only after every module is built.
 */
function buildModules(p: Platform, o: Overrides) {
  // the household's language and region: built first, as the members' answers and Today's day read it
  const localeModule = createLocaleModule(p);
  const householdLocale = localeModule.services.locale;
  const auth = createAuthModule(p, { locale: householdLocale });
  const users = auth.services.auth;
  const content = createContentModule(p, { users });
  const dials = content.services.content;
  const notifications = createNotificationsModule(p, { users });
  const notify = createNotifyModule(p, { users });
  // Today is built later: asked only when a layout is read
  const homeLayout = createHomeLayoutModule(p, { users, todaySetUp: async () => (await today.services.weather.location()) !== null });
  // the model hub's API key, asked for at each attempt so it is never kept in a job's row
  const downloads = createDownloadsModule(p, {
    headersFor: (job) => imageGen.services.imageHub.downloadHeaders(job),
    pulls: () => models.services.pulls,
    conditions: notifications.services.conditions,
  });
  const { downloads: queue } = downloads.services;
  // the benchmarks module is built later: asked only when the Features page is read
  const features = createFeaturesModule(p, { downloads: queue, modelDetails: () => models.services.modelDetails, chatSpeed: (model) => benchmarks.services.benchmarks.chatSpeed(model) });
  const { features: feats, catalog } = features.services;
  const chatReadiness = () => feats.chatReadiness();
  const setup = createSetupModule(p, { users, features: feats, catalog, downloads: queue, conditions: notifications.services.conditions });
  const models = createModelsModule(p, { users, features: feats, catalog, downloads: queue, setup: setup.services.setup });
  const tools = createToolsModule(p, { notifications: notifications.services.notifications, extraDefinitions: o.extensions });
  const isEnabled = (toolId: string) => tools.services.tools.isEnabled(toolId);
  const archives = createArchivesModule(p, { chatReadiness, isEnabled, archivesLevel: async (actor) => (await dials.effective(actor.id)).archives });
  const reader = createReaderModule(p, { notifications: notifications.services.notifications, models: feats, chatReadiness, isEnabled, captureEngine: o.captureEngine });
  const homeInventory = createHomeInventoryModule(p, {
    users,
    notifications: notifications.services.notifications,
    models: models.services.models,
    backgroundTextModel: () => feats.chosenModel('chat'),
    chatReadiness,
    isEnabled,
  });
  const imageGen = createImageGenModule(p, { users, content: dials, downloads: queue, catalog, models: models.services.models, chatReadiness, loraRegistry: o.imageLoraRegistry, engine: o.imageEngine });
  const memory = createMemoryModule(p, { chatReadiness });
  const companions = createCompanionsModule(p, { users, content: dials });
  // the chat tools are read only once every module is built (chat is built next)
  const skills = createSkillsModule(p, { chatTools: () => chat.services.chatTools.all().map((t) => ({ id: t.id, name: t.id.replace(/_/g, ' ') })) });
  const chat = createChatModule(p, {
    details: models.services.modelDetails,
    picker: o.chatModelPicker ?? models.services.models,
    looker: feats,
    extensions: tools.services.tools,
    standIns: o.chatTools,
    content: dials,
    memory: memory.services.memory,
    companions: companions.services.companions,
    skills: skills.services.skills,
    vision: () => vision.services.vision,
  });
  const search = createSearchModule(p, { isEnabled });
  const mediaServer = createMediaServerModule(p, { members: users, exportConnection: o.mediaConnection, mediaLevel: async (id) => (await dials.effective(id)).media });
  const voice = createVoiceModule(p);
  const tls = createTlsModule(p);
  const today = createTodayModule(p, {
    chatReadiness,
    chatModel: () => feats.chosenModel('chat'),
    // On this day offline: the installed Wikipedia archive's day article
    wikipedia: { article: (title) => archives.services.archives.articleByTitle('wikipedia', title), viewerUrl: (path) => archiveArticleUrl('wikipedia', path) },
    locale: householdLocale,
  });
  const maps = createMapsModule(p, { downloads: queue, chatReadiness });
  const homeAssistant = createHomeAssistantModule(p, { users, content: dials, chatReadiness, notifications: notifications.services.notifications });
  // a test's stand-in probe is the machine its hardware check reports
  const system = createSystemModule(p, { machine: o.hardware ?? machineSummary });
  const podcasts = createPodcastsModule(p, { downloads: queue });
  const shows = createShowsModule(p, {
    inPlex: async (actor, ids) => {
      const { mediaLibrary } = mediaServer.services;
      for (const [source, id] of [['tvdb', ids.tvdb], ['imdb', ids.imdb]] as const) {
        if (id === null) continue;
        const hit = await mediaLibrary.find(actor, { type: 'show', source, id: String(id) });
        if (hit.found && hit.item) return { ratingKey: hit.item.ratingKey };
      }
      return null;
    },
    timeZone: () => householdLocale.timeZone(),
    episodeViews: (actor, ratingKey) => mediaServer.services.mediaCatalogue.episodeViews(actor, ratingKey),
  });
  const converter = createConverterModule(p);
  const speedtest = createSpeedtestModule(p, { users });
  const lookup = createLookupModule(p);
  const shopping = createShoppingModule(p, { barcodes: lookup.services.barcodeLookup, chatReadiness });
  const vision = createVisionModule(p, { models: models.services.models, ocr: homeInventory.services.homeOcr });
  const storage = createStorageModule(p, { downloads: queue, converter: converter.services.converter, conditions: notifications.services.conditions, modules: () => all });
  const music = createMusicModule(p, { engine: imageGen.services.image.engine, content: dials });
  const videos = createVideosModule(p, { podcastVideos: podcasts.services.podcastVideos, downloads: queue });
  const movies = createMoviesModule(p, {
    catalogue: mediaServer.services.mediaCatalogue,
    plexWatchlist: async (actor, discoverKey, remove) => void (await mediaServer.services.mediaLibrary.watchlist(actor, { discoverKey, remove })),
  });
  const connectivity = createConnectivityModule(p);
  const { image } = imageGen.services;
  const benchmarks = createBenchmarksModule(p, { image: { engine: image.engine, generate: image.generate, artifacts: image.artifacts } });
  const all = [auth, content, notifications, notify, homeLayout, downloads, features, setup, models, tools, archives, reader, homeInventory, imageGen, memory, companions, skills, chat, search, mediaServer, voice, tls, today, maps, homeAssistant, podcasts, shows, converter, speedtest, lookup, shopping, storage, connectivity, benchmarks, system, music, videos, vision, localeModule, movies] as const;
  return all;
}

type Modules = ReturnType<typeof buildModules>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every module's services, by their names (each name is offered by one module only). */
export type ModuleServices = UnionToIntersection<Modules[number]['services']>;

/** What createServer() and tests hold: the platform, the modules in start order and their services. Never a store. */
export type Deps = Platform & ModuleServices & { modules: readonly ModuleManifest[] };

export function buildContainer(base: { config: Config; logger: Logger; db: Knex; migrations: number }, overrides: Overrides = {}): Deps {
  const { config, logger, db } = base;
  const clock = overrides.clock ?? systemClock;
  const now = () => clock.now();
  const networkInterfaces = overrides.networkInterfaces ?? (() => os.networkInterfaces());
  const settings = new AppSettingsStore(db, now, tableWrites(db, ['app_settings']));
  // OFFLINE_MODE forces it on; the admin's switch (Admin › Connectivity) is read by app.ts before any module starts
  const offline = new OfflineSwitch(config.offline, settings);
  const platform: Platform = {
    config,
    logger,
    clock,
    db,
    bus: new EventBus(logger.child('bus')),
    scheduler: new Scheduler(logger.child('scheduler')),
    sse: new SseRegistry(logger.child('http')),
    settings,
    preferences: new UserPreferencesStore(db, now),
    hardware: overrides.hardware ?? cachedProbe(createHardwareProbe(config.dataDir)),
    modelRuntime: overrides.modelRuntime ?? createOllamaClient({ baseUrl: config.modelRuntimeUrl, timeoutMs: 3000 }),
    offline,
    guard: createSsrfGuard({ allowOrigins: config.fetchAllowOrigins, offline }),
    diskFree: overrides.diskFree ?? diskFree,
    diskUsage: overrides.diskUsage ?? diskUsage,
    // the one reserve check of every large write (downloads, uploads, captures, LoRA files)
    diskSpace: createDiskSpace(overrides.diskFree ?? diskFree),
    tuning: overrides.tuning ?? {},
    networkInterfaces,
    migrations: base.migrations,
    tls: new TlsManager({ dir: path.join(config.dataDir, 'tls'), hostName: config.hostName, host: config.host, networkInterfaces, clock, logger: logger.child('tls') }),
  };
  const modules = buildModules(platform, overrides);
  for (const m of modules as readonly ModuleManifest[]) m.gather?.(modules);
  wireModules(platform, modules);
  const services: Record<string, unknown> = {};
  for (const m of modules) {
    for (const [name, service] of Object.entries(m.services)) {
      if (name in services || name in platform) throw new Error(`${m.name} offers ${name}, which another module or the platform already offers`);
      services[name] = service;
    }
  }
  return { ...platform, ...(services as ModuleServices), modules };
}

/** Each module's scheduled tasks go to the scheduler and its listeners to the bus. */
export function wireModules(p: Pick<Platform, 'bus' | 'scheduler'>, modules: readonly ModuleManifest[]): void {
  for (const m of modules) {
    for (const t of m.tasks ?? []) p.scheduler.every(t.name, t.everyMs, async () => {
      await t.run();
    });
    for (const l of m.listeners ?? []) p.bus.on(l.event, l.run as (payload: unknown) => Promise<void>);
  }
}
