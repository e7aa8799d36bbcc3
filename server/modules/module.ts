// The one shape every module has. A folder under server/modules/ has a module.ts whose factory takes
// the platform (what every module may use) and the ports it asks of other modules (its ports.ts),
// builds its own parts (stores, services, the adapters it alone uses) and returns a ModuleManifest.
// container.ts builds the modules in start order and hands each the ports it asks for; api-router.ts
// mounts the routes; app.ts starts and closes them. docs/architecture.md, "A module", has the template.
import type { Knex } from 'knex';
import type { ModelRuntimeClient } from '../adapters/model-runtime/ollama.js';
import type { Config } from '../config.js';
import type { AppSettingsStore, UserPreferencesStore } from '../db/kv.js';
import type { FeatureRoutes } from '../http/routes.js';
import type { SseRegistry } from '../http/sse.js';
import type { Clock } from '../platform/clock.js';
import type { DiskFree, DiskSpace, DiskUsage } from '../platform/disk.js';
import type { EventBus, EventMap } from '../platform/event-bus.js';
import type { HardwareProbe } from '../platform/hardware.js';
import type { NetworkInterfaces } from '../platform/lan.js';
import type { Logger } from '../platform/logger.js';
import type { OfflineSwitch } from '../platform/offline-switch.js';
import type { OutboundSourceReport } from '../platform/outside-sources/fetcher.js';
import type { Scheduler } from '../platform/scheduler.js';
import type { SsrfGuard } from '../platform/ssrf.js';
import type { TlsManager } from '../platform/tls/manager.js';
import type { PinThrottleRules } from './auth/throttle.js';
import type { ChatTool } from './chat/tool-registry.js';
import type { SearchProvider } from './search/providers.js';
import type { BootStepDefinition } from './system/boot-service.js';
import type { AvailabilityCheck, ToolDefinition } from './tools/schema.js';

/** What every module may use: built once by the container before any module. */
export interface Platform {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Knex;
  bus: EventBus;
  scheduler: Scheduler;
  sse: SseRegistry;
  /** The household's app settings and each member's preferences (db/kv.ts, shared key-value tables). */
  settings: AppSettingsStore;
  preferences: UserPreferencesStore;
  hardware: HardwareProbe;
  /** The model runtime (Ollama): many modules ask it for answers. */
  modelRuntime: ModelRuntimeClient;
  /**
   * Offline mode, live: OFFLINE_MODE forces it on, an admin switches it in Admin › Connectivity.
   * Read it at each call (`isOn()`), never copy it at construction; the guard already refuses.
   */
  offline: OfflineSwitch;
  /** The one SSRF guard every server-side fetch goes through (closed by app.ts). */
  guard: SsrfGuard;
  diskFree: DiskFree;
  /** Free and total bytes of a disk (the storage page and its low-space warning). */
  diskUsage: DiskUsage;
  /** The reserve check every large write makes before it starts (downloads, uploads, captures, LoRA files). */
  diskSpace: DiskSpace;
  tuning: Tuning;
  /** The machine's network interfaces, for the addresses other devices use (tests pass their own). */
  networkInterfaces: () => NetworkInterfaces;
  /** How many migrations the database has run (the system module's boot step reports it). */
  migrations: number;
  /** HTTPS: the household certificate authority, the certificate served and the names Hearth answers to. */
  tls: TlsManager;
}

/**
 * Routes mounted under /api + prefix; `public` ones before the session lookup (content that is the
 * same for everyone); `first` ones behind the session lookup but ahead of every other module's
 * routes (a path asked many times a second, such as map tiles, skips the walk past the others).
 */
export interface ModuleRoutes {
  prefix: string;
  routes: FeatureRoutes;
  public?: boolean;
  first?: boolean;
}

/** A task the scheduler runs every `everyMs`. */
export interface ScheduledTask {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/**
 * One storage area a module fills: `key` names the area on the admin Storage page (several modules
 * may add folders to one key), `folders` are top-level folder names under the data folder.
 */
export interface StorageAreaDeclaration {
  key: string;
  label: string;
  folders: string[];
}

/** A listener on the event bus (platform/event-bus.ts): a module reacts to another's fact without either knowing the other. */
export type ModuleListener = { [K in keyof EventMap]: { event: K; run(payload: EventMap[K]): unknown } }[keyof EventMap];

/** The Extensions (app store entries) a module adds to the tool registry, and how each says it is available. */
export interface ModuleExtensions {
  definitions: ToolDefinition[];
  checks?: Record<string, AvailabilityCheck>;
}

export interface ModuleManifest<S extends object = object> {
  /** The folder's name. */
  name: string;
  /** Its routes, in mount order; each declares its access with defineRoutes. */
  routes?: ModuleRoutes[];
  /** What it offers outside: other modules' ports (named here), the CLI and tests (handle.deps). Never a store. */
  services: S;
  tasks?: ScheduledTask[];
  /** The folders under the data folder this module keeps its files in, by storage area (the storage module adds them up). */
  storageAreas?: StorageAreaDeclaration[];
  /** Boot steps, run in module order after the server listens (the system module runs them). */
  bootSteps?: BootStepDefinition[];
  chatTools?: ChatTool[];
  searchProviders?: SearchProvider[];
  extensions?: ModuleExtensions;
  listeners?: ModuleListener[];
  /** The outside sources it fetches from, with their last outcomes (the connectivity module lists them for the admin). */
  outboundSources?: OutboundSourceReport[];
  /**
   * For a module that gathers what the others contribute (chat its tools, search its providers, the
   * tools module the Extensions, the system module the boot steps): called once every module is built.
   */
  gather?(modules: readonly ModuleManifest[]): void;
  /** Called by app.ts in start order once every module is built (resume queued work). */
  start?(): Promise<unknown>;
  /** Called by app.ts in reverse start order, also for a module whose start never ran or failed. */
  close?(): Promise<void>;
}

/** Types a module's manifest (the factory's return value) and keeps its service names as written. */
export function defineModule<S extends object>(manifest: ModuleManifest<S>): ModuleManifest<S> {
  return manifest;
}

/** Timing knobs tests shorten; production uses the defaults. */
export interface Tuning {
  /** How long a speech server an admin added may take to speak a sentence (default 30 s; a transcription may take 3 minutes). */
  voiceRemoteTimeoutMs?: number;
  downloadStallTimeoutMs?: number;
  downloadBackoffBaseMs?: number;
  /** Today's outbound fetches: whole request, headers and body (default 15 s). */
  todayFetchTimeoutMs?: number;
  /** How long the briefing waits for the chat model's summary (default 30 s). */
  briefingSummaryMs?: number;
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
  /** Home Assistant: each call's and the connect handshake's budget (default 10 s). */
  homeAssistantTimeoutMs?: number;
  /** Home Assistant: the reconnect backoff's first wait and ceiling (default 1 s and 60 s). */
  homeAssistantBackoffMs?: { base: number; max: number };
  /** Home Assistant: how often the kept-open socket is pinged; no pong within the call budget ends it and reconnects (default 30 s). */
  homeAssistantPingMs?: number;
  /** How often the camera recorder is asked for new events when no broker is set (default 10 s). */
  frigatePollMs?: number;
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
  /** Largest file the converter takes (default MAX_CONVERT_BYTES, 2 GB). */
  converterMaxUploadBytes?: number;
  /** Conversions run at once (default one per CPU core). */
  converterJobs?: number;
  /** Notification channels: each send's budget (default 10 s). */
  notifyTimeoutMs?: number;
  /** Notification channels: the first wait before a failed send is tried again, doubled each time (default 2 s). */
  notifyBackoffMs?: number;
  /** The Telegram long poll's wait in seconds (default 30). */
  telegramPollSeconds?: number;
  /** Each vision model answer of POST /api/vision/analyze (default 120 s). */
  visionModelMs?: number;
  /** How many photos POST /api/vision/analyze works on at once for the household (default 2); more is a 429. */
  visionConcurrent?: number;
  /** How long Admin › Connectivity's internet check is kept (default a minute). */
  connectivityCheckTtlMs?: number;
  /** The benchmark's temporary file in the data folder (default 64 MiB). */
  benchmarkDiskBytes?: number;
}
