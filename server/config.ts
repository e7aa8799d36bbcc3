// The one reader of process.env (and argv). Everything else receives a typed Config.
// DESIGN.md §2 lists the environment; runtime household settings live in the database, not here.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { withoutHeapTunables } from './platform/heap-tunables.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const boolish = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));

const httpUrl = z.url({ protocol: /^https?$/ });

export const ConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(8787),
  /** HTTPS beside HTTP (0: any free port); the household decides in the admin's TLS page whether it is on. */
  httpsPort: z.coerce.number().int().min(0).max(65535).default(8443),
  /** This computer's name, as the household certificate and the host guard know it. */
  hostName: z.string().min(1).default(() => os.hostname()),
  host: z.string().min(1).default('0.0.0.0'),
  dataDir: z.string().min(1),
  rootDir: z.string().min(1),
  resourcesDir: z.string().min(1),
  webDir: z.string().min(1),
  docsDir: z.string().min(1),
  migrationsDir: z.string().min(1),
  modelRuntimeUrl: httpUrl.default('http://127.0.0.1:11434'),
  imageEngineUrl: httpUrl.optional(),
  archiveServerPort: z.coerce.number().int().min(1).max(65535).default(8090),
  kiwixServePath: z.string().optional(),
  archiveCatalogPath: z.string().min(1),
  mapCatalogPath: z.string().min(1),
  mediaAccountUrl: httpUrl.default('https://plex.tv'),
  mediaDiscoverUrl: httpUrl.default('https://discover.provider.plex.tv'),
  /** The page where a member approves a link code (tests point it at the fake's sign-in page). */
  mediaLinkPageUrl: httpUrl.default('https://app.plex.tv/auth'),
  /** The short page where a member types the 4-character code on another device (plex.tv/link). */
  mediaCodePageUrl: httpUrl.default('https://plex.tv/link'),
  webSearchUrl: httpUrl.optional(),
  /** The civitai-style model hub the admin searches and imports LoRAs from (tests point it at a fake). */
  modelHubUrl: httpUrl.default('https://civitai.com'),
  /** Today's sources (issue 33); tests point them at fakes. WIKIPEDIA_BASE replaces https://{lang}.wikipedia.org ({lang} is filled in when present). */
  openMeteoUrl: httpUrl.default('https://api.open-meteo.com'),
  openMeteoGeoUrl: httpUrl.default('https://geocoding-api.open-meteo.com'),
  /** MET Norway's Locationforecast, the admin's alternative weather source. */
  metUrl: httpUrl.default('https://api.met.no'),
  wikipediaUrl: z.string().min(1).default('https://{lang}.wikipedia.org'),
  sportsDbUrl: httpUrl.default('https://www.thesportsdb.com'),
  /** The iTunes Search API the podcasts module searches (issue 35); tests point it at a fake. */
  itunesUrl: httpUrl.default('https://itunes.apple.com'),
  tvmazeUrl: httpUrl.default('https://api.tvmaze.com'),
  /** Open Food Facts, where a barcode is looked up (issue 38); tests point it at a fake. */
  openFoodFactsUrl: httpUrl.default('https://world.openfoodfacts.org'),
  /** The Telegram Bot API the notification channels talk to (issue 38); tests point it at a fake. */
  telegramApiUrl: httpUrl.default('https://api.telegram.org'),
  /** YouTube's public channel pages and Atom feeds the video hub reads (issue 35); tests point it at a fake. */
  youtubeFeedsUrl: httpUrl.default('https://www.youtube.com'),
  /** TMDB's API and its image host, the films' catalogue once an admin adds a TMDB token (issue 35); tests point them at a fake. */
  tmdbUrl: httpUrl.default('https://api.themoviedb.org'),
  tmdbImageUrl: httpUrl.default('https://image.tmdb.org/t/p'),
  chromiumPath: z.string().optional(),
  offline: boolish.default(false),
  fetchAllowOrigins: z.array(z.string()).default([]),
  featureCatalogPath: z.string().min(1),
  kiwixToolsUrl: httpUrl.optional(),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  /** Check every JSON answer and stream event against its route's declared schema (test servers). */
  checkResponses: boolish.default(false),
  /** Directories of the PATH, for finding user-installed programs (model runtime, kiwix-serve). */
  searchPath: z.array(z.string()).default([]),
  /**
   * How hard a new PIN hash is to compute (server/modules/auth/pin.ts). `standard` everywhere but in
   * the test suite: `low` (PIN_HASH_COST=low) is refused unless HEARTH_TEST=1 says this is a test.
   */
  pinHashCost: z.enum(['standard', 'low']).default('standard'),
  /** Admin › Connectivity's one internet check (a HEAD through the guard, never in offline mode); tests point it at a fake. */
  connectivityCheckUrl: httpUrl.default('https://detectportal.firefox.com/success.txt'),
  /** Podcast Index's API, searched instead of iTunes once an admin adds a key (issue 35); tests point it at a fake. */
  podcastIndexUrl: httpUrl.default('https://api.podcastindex.org/api/1.0'),
});
export type Config = z.infer<typeof ConfigSchema>;

/** The folder holding package.json: two levels up from server/ in source, three from dist/server/. */
export function findRootDir(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'hearth') return dir;
      } catch {
        // not ours; keep walking up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Hearth's package.json was not found above ${from}`);
    dir = parent;
  }
}

/** The OS application-data folder + /Hearth (DESIGN.md §2). */
export function defaultDataDir(env: NodeJS.ProcessEnv, platform = process.platform, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Hearth');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Hearth');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Hearth');
}

/** The environment a child program starts with: Hearth's own, plus the program's variables. */
export function childProcessEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...withoutHeapTunables(process.env), ...extra };
}

const emptyToUndefined = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v);

/**
 * Builds the config from the environment and command-line flags (flags win).
 * Throws a readable error listing every bad variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): Config {
  const { values: flags } = parseArgs({
    args: argv,
    strict: false,
    options: {
      port: { type: 'string' },
      'https-port': { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'resources-dir': { type: 'string' },
      'root-dir': { type: 'string' },
    },
  });
  const flag = (name: string) => {
    const v = flags[name];
    return typeof v === 'string' ? v : undefined;
  };
  const rootDir = flag('root-dir') ?? findRootDir();
  const resourcesDir = flag('resources-dir') ?? path.join(rootDir, 'resources');
  const raw = {
    port: flag('port') ?? emptyToUndefined(env.PORT),
    httpsPort: flag('https-port') ?? emptyToUndefined(env.HTTPS_PORT),
    hostName: emptyToUndefined(env.HEARTH_HOSTNAME),
    host: flag('host') ?? emptyToUndefined(env.HOST),
    dataDir: path.resolve(flag('data-dir') ?? emptyToUndefined(env.DATA_DIR) ?? defaultDataDir(env)),
    rootDir,
    resourcesDir,
    webDir: path.join(rootDir, 'dist', 'web'),
    docsDir: path.join(rootDir, 'docs'),
    migrationsDir: path.join(rootDir, 'migrations'),
    modelRuntimeUrl: emptyToUndefined(env.MODEL_RUNTIME_URL),
    imageEngineUrl: emptyToUndefined(env.IMAGE_ENGINE_URL),
    archiveServerPort: emptyToUndefined(env.ARCHIVE_SERVER_PORT),
    kiwixServePath: emptyToUndefined(env.KIWIX_SERVE_PATH),
    archiveCatalogPath: emptyToUndefined(env.ARCHIVE_CATALOG_PATH) ?? path.join(resourcesDir, 'catalog', 'archives.json'),
    mapCatalogPath: emptyToUndefined(env.MAP_CATALOG_PATH) ?? path.join(resourcesDir, 'catalog', 'maps.json'),
    mediaAccountUrl: emptyToUndefined(env.MEDIA_ACCOUNT_URL),
    mediaDiscoverUrl: emptyToUndefined(env.MEDIA_DISCOVER_URL),
    mediaLinkPageUrl: emptyToUndefined(env.MEDIA_LINK_PAGE_URL),
    mediaCodePageUrl: emptyToUndefined(env.MEDIA_CODE_PAGE_URL),
    webSearchUrl: emptyToUndefined(env.WEB_SEARCH_URL),
    modelHubUrl: emptyToUndefined(env.MODEL_HUB_URL),
    openMeteoUrl: emptyToUndefined(env.OPEN_METEO_BASE),
    openMeteoGeoUrl: emptyToUndefined(env.OPEN_METEO_GEO_BASE),
    metUrl: emptyToUndefined(env.MET_BASE),
    wikipediaUrl: emptyToUndefined(env.WIKIPEDIA_BASE),
    sportsDbUrl: emptyToUndefined(env.SPORTSDB_BASE),
    itunesUrl: emptyToUndefined(env.ITUNES_BASE),
    tvmazeUrl: emptyToUndefined(env.TVMAZE_BASE),
    openFoodFactsUrl: emptyToUndefined(env.OPEN_FOOD_FACTS_URL),
    telegramApiUrl: emptyToUndefined(env.TELEGRAM_API_URL),
    youtubeFeedsUrl: emptyToUndefined(env.YOUTUBE_FEEDS_BASE),
    tmdbUrl: emptyToUndefined(env.TMDB_BASE),
    tmdbImageUrl: emptyToUndefined(env.TMDB_IMAGE_BASE),
    chromiumPath: emptyToUndefined(env.CHROMIUM_PATH),
    offline: emptyToUndefined(env.OFFLINE_MODE),
    fetchAllowOrigins: (emptyToUndefined(env.FETCH_ALLOW_ORIGINS) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    featureCatalogPath: emptyToUndefined(env.FEATURE_CATALOG_PATH) ?? path.join(resourcesDir, 'catalog', 'features.json'),
    kiwixToolsUrl: emptyToUndefined(env.KIWIX_TOOLS_URL),
    logLevel: emptyToUndefined(env.LOG_LEVEL),
    checkResponses: emptyToUndefined(env.HEARTH_CHECK_RESPONSES),
    searchPath: (env.PATH ?? '').split(path.delimiter).filter(Boolean),
    pinHashCost: emptyToUndefined(env.PIN_HASH_COST),
    connectivityCheckUrl: emptyToUndefined(env.CONNECTIVITY_CHECK_URL),
    podcastIndexUrl: emptyToUndefined(env.PODCASTINDEX_BASE),
  };
  const parsed = ConfigSchema.safeParse(raw);
  const lines = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  // a cheap PIN hash would make a household's PINs easy to guess from a copied database
  if (parsed.success && parsed.data.pinHashCost !== 'standard' && !boolish.parse(env.HEARTH_TEST ?? 'false')) {
    lines.push('  pinHashCost: PIN_HASH_COST=low is only for the test suite (it also needs HEARTH_TEST=1)');
  }
  if (!parsed.success || lines.length > 0) {
    throw new Error(`Hearth's configuration is not valid:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
